// The in-memory name directory must offer every name the matchers accept (it replaces the FTS search
// of names), and refuse a query that would try too many.
import { NameDirectory, type DirectoryName } from '../../core/geocoding/name-directory';
import { matchName, matchPlaceName } from '../../core/geocoding/match-name';

const names = (list: string[]): DirectoryName[] => list.map((name, i) => ({ id: i + 1, name, of: null, words: name.split(' ') }));

describe('NameDirectory', () => {
  const streets = names(['north wolfe street', 'wolfe street', 'north avenue', 'east street', 'northern parkway', 'main street', 'o donnell street']);
  const dir = new NameDirectory(streets, 'street', 1000);

  it.each([
    [['north', 'wolfe', 'street'], false],
    [['wolfe'], false],
    [['north', 'avenue'], false],
    [['north'], true],
    [['wol'], true],
    [['615', 'north', 'wolfe', 'str'], true],
    [['o', 'donnell'], false],
    [['main', 'wolfe'], false],
  ])('offers every street name matchName accepts for %j (typing: %s)', (query, typing) => {
    const offered = new Set(dir.candidates(query, typing)!.map((n) => n.name));
    const accepted = streets.filter((n) => matchName(n.words, query, typing) !== undefined).map((n) => n.name);
    expect(accepted.length).toBeGreaterThan(0);
    for (const name of accepted) expect(offered).toContain(name);
  });

  it('leaves out names whose deciding word is not in the query', () => {
    expect(dir.candidates(['wolfe'], false)!.map((n) => n.name)).not.toContain('main street');
  });

  it('orders a whole name before a longer one holding it', () => {
    expect(dir.candidates(['wolfe', 'street'], false)!.map((n) => n.name).filter((n) => n.includes('wolfe'))).toEqual(['wolfe street', 'north wolfe street']);
  });

  it('offers places holding at least half of the query words', () => {
    const places = names(['johns hopkins hospital', 'hopkins pharmacy', 'casino', 'hospital of the sisters']);
    const pdir = new NameDirectory(places, 'place', 1000);
    for (const [query, typing] of [[['johns', 'hop'], true], [['hopkins'], false], [['hopkins', 'hospital'], false], [['casino', 'monaco'], false]] as const) {
      const offered = new Set(pdir.candidates(query, typing)!.map((n) => n.name));
      const accepted = places.filter((n) => {
        const m = matchPlaceName(n.words, query, typing);
        return m !== undefined && (query.length - m.leftover.length) * 2 >= query.length;
      });
      expect(accepted.length).toBeGreaterThan(0);
      for (const n of accepted) expect(offered).toContain(n.name);
    }
  });

  it('refuses a query that would try more names than allowed', () => {
    const many = names(Array.from({ length: 50 }, (_, i) => `n${i} street`));
    expect(new NameDirectory(many, 'street', 20).candidates(['n'], true)).toBeUndefined();
    expect(new NameDirectory(many, 'street', 20).candidates(['n7'], false)).toHaveLength(1);
  });
});
