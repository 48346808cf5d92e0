// Issue 32, `lang`: OSM's name:xx tags, stored at import in the geocoding index (format version 3), give
// answers in the language asked for, fall back to the name as mapped where the map has none, and make
// the translated names searchable. Monaco and Liechtenstein (2015) over HTTP; an index of the previous
// version (2) is still read, names as mapped.
import Database from 'better-sqlite3';
import path from 'node:path';
import { stageDir } from '../../core/formats/extract-layout';
import { INDEX_FILE } from '../../core/formats/geocoding-index';
import { importGeocoding, osmFixturesPresent } from '../support/geocoding-extracts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

interface Answer { layer: string; placeLabel?: string; street?: string; number?: string; city?: string; country?: string; formattedAddress?: string }

const present = osmFixturesPresent();
const MONACO = '43.7384,7.4246';

(present ? describe : describe.skip)('geocoding in the language asked for', () => {
  const dataDir = tempDataDir();
  let server: TestServer;
  beforeAll(async () => {
    await importGeocoding(dataDir, 'monaco', 'monaco-osrm.osm.pbf');
    await importGeocoding(dataDir, 'liechtenstein', 'liechtenstein-2015-valhalla.osm.pbf');
    server = await startTestServer({ dataDir });
  }, 300_000);
  afterAll(() => server?.close());

  async function ask(p: string, query: Record<string, string>): Promise<Answer[]> {
    const r = await server.request('GET', p, { key: server.keys.testPk, query });
    expect([query, r.status]).toEqual([query, 200]);
    return r.body.addresses;
  }

  test('the index stores names in Radar\'s languages only, and says it is version 3', () => {
    const db = new Database(path.join(stageDir(dataDir, 'monaco', 'geocoding'), INDEX_FILE), { readonly: true });
    const version = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'version'").get()!.value;
    const langs = db.prepare<[], { lang: string }>('SELECT DISTINCT lang FROM translations ORDER BY lang').all().map((r) => r.lang);
    const museum = db.prepare<[], { lang: string; value: string }>("SELECT lang, value FROM translations WHERE kind = 'place' AND name = 'Musée Océanographique'").all();
    db.close();
    expect(version).toBe('3');
    expect(langs.every((l) => ['ar', 'de', 'en', 'es', 'fr', 'ja', 'ko', 'pt', 'ru', 'zh'].includes(l))).toBe(true);
    expect(langs).toEqual(expect.arrayContaining(['de', 'en', 'ja']));
    // name:en given, the museum's only other name in Radar's languages.
    expect(museum).toEqual([{ lang: 'en', value: 'Oceanographic Museum' }]);
  });

  test('a place: in the language asked for, as mapped without lang, and as mapped where that language is missing', async () => {
    const query = { query: 'Musée Océanographique', layers: 'place' };
    expect((await ask('/v1/geocode/forward', query))[0].placeLabel).toBe('Musée Océanographique');
    expect((await ask('/v1/geocode/forward', { ...query, lang: 'en' }))[0].placeLabel).toBe('Oceanographic Museum');
    expect((await ask('/v1/geocode/forward', { ...query, lang: 'ko' }))[0].placeLabel).toBe('Musée Océanographique');
  });

  test('a translated name finds its place, forward and while typing', async () => {
    const [museum] = await ask('/v1/geocode/forward', { query: 'Oceanographic Museum', layers: 'place' });
    expect(museum.placeLabel).toBe('Musée Océanographique');
    const typed = await ask('/v1/search/autocomplete', { query: 'Japanese Gar', near: MONACO, lang: 'de', limit: '5' });
    expect(typed[0].placeLabel).toBe('Japanischer Garten');
    const asMapped = await ask('/v1/search/autocomplete', { query: 'Japanese Gar', near: MONACO, limit: '5' });
    expect(asMapped[0].placeLabel).toBe('Jardin Japonais');
  });

  test('a street: found by its name:fr, answered in French only when asked', async () => {
    const asMapped = await ask('/v1/geocode/forward', { query: 'Sentier Nietzsche', layers: 'address' });
    expect(asMapped[0].street).toBe('Chemin Friedrich Nietzsche');
    const french = await ask('/v1/geocode/forward', { query: 'Chemin Friedrich Nietzsche', layers: 'address', lang: 'fr' });
    expect(french[0].street).toBe('Sentier Nietzsche');
    expect(french[0].formattedAddress).toContain('Sentier Nietzsche');
  });

  test('admin names from the boundaries follow lang; the address itself stays as mapped', async () => {
    const [asMapped] = await ask('/v1/geocode/forward', { query: '1 Rue du Ténao' });
    const [russian] = await ask('/v1/geocode/forward', { query: '1 Rue du Ténao', lang: 'ru' });
    expect([asMapped.number, asMapped.street, asMapped.city]).toEqual(['1', 'Rue du Ténao', 'Monaco']);
    expect([russian.number, russian.street, russian.city]).toEqual(['1', 'Rue du Ténao', 'Монако']);
    expect(russian.formattedAddress).toContain('Монако');
  });

  test('reverse geocoding answers in the language asked for', async () => {
    const [place] = await ask('/v1/geocode/reverse', { coordinates: '43.7307,7.4252', layers: 'place', lang: 'en' });
    expect(place.placeLabel).toBe('Oceanographic Museum');
  });

  test('a language Radar does not list is a 400 naming lang', async () => {
    for (const lang of ['it', 'english', 'e']) {
      const r = await server.request('GET', '/v1/geocode/forward', { key: server.keys.testPk, query: { query: 'Monaco', lang } });
      expect([lang, r.status, r.body.meta.param]).toEqual([lang, 400, 'lang']);
    }
  });
});

(present ? describe : describe.skip)('an index of the previous version (2)', () => {
  const dataDir = tempDataDir();
  let server: TestServer;
  beforeAll(async () => {
    await importGeocoding(dataDir, 'monaco', 'monaco-osrm.osm.pbf');
    // Version 2's shape: no translations, no `of` column, no rows for translated names.
    const db = new Database(path.join(stageDir(dataDir, 'monaco', 'geocoding'), INDEX_FILE));
    db.exec(`
      DROP TABLE translations;
      DELETE FROM street_names WHERE of IS NOT NULL; ALTER TABLE street_names DROP COLUMN of;
      DELETE FROM place_names WHERE of IS NOT NULL; ALTER TABLE place_names DROP COLUMN of;
      UPDATE meta SET value = '2' WHERE key = 'version';
    `);
    db.close();
    server = await startTestServer({ dataDir });
  }, 300_000);
  afterAll(() => server?.close());

  test('is still searched; names come as mapped whatever lang asks', async () => {
    const r = await server.request('GET', '/v1/geocode/forward', { key: server.keys.testPk, query: { query: 'Musée Océanographique', layers: 'place', lang: 'en' } });
    expect(r.status).toBe(200);
    expect(r.body.addresses[0].placeLabel).toBe('Musée Océanographique');
  });
});
