// The four profiles, by mode, in the order their graphs are built.
import { bike } from './bike';
import { car } from './car';
import { foot } from './foot';
import type { ProfileSpec, RoutingMode } from './profile';
import { truck } from './truck';

export const PROFILES: Readonly<Record<RoutingMode, ProfileSpec>> = { car, truck, bike, foot };
export const MODES: readonly RoutingMode[] = ['car', 'truck', 'bike', 'foot'];
