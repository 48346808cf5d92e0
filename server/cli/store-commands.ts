// What the commands that work on the store (project, webhooks, geofences) use of a built gateway: the
// entry point (main.ts) picks these from the composition root's records and hands them nothing else.
import type { Store } from '../../ports/store';
import type { InstalledFeatures } from '../feature';
import type { ProjectService } from '../features/projects/project-service';

export interface StoreCommandParts {
  store: Store;
  projects: ProjectService;
  /** Where a command finds a feature's runtime (webhooksOf, geofenceImportOf). */
  installed: InstalledFeatures;
}
