// The chain slug rule against Radar's published chain list (../shared/fixtures/radar/places/chains.tsv).
import fs from 'node:fs';
import path from 'node:path';
import { chainSlug, normalisedName } from '../../../importers/osm/stages/places/chain-slug';
import { loadBrandIndex } from '../../../importers/osm/stages/places/nsi-brands';
import { announceSkip, files } from '../../support/requires';

const CHAINS = path.join(__dirname, '../../../../shared/fixtures/radar/places/chains.tsv');
const have = fs.existsSync(CHAINS);
if (!have) announceSkip("chain slugs: the check against Radar's chains", files(CHAINS));
const maybe = have ? test : test.skip;

test('the slugs Radar documents for well-known chains', () => {
  expect(chainSlug("McDonald's")).toBe('mcdonalds');
  expect(chainSlug('Starbucks')).toBe('starbucks');
  expect(chainSlug('7-Eleven')).toBe('7-eleven');
  expect(chainSlug('Barnes & Noble')).toBe('barnes-and-noble');
  expect(chainSlug('The Body Shop')).toBe('body-shop');
  expect(chainSlug('Alice + Olivia')).toBe('alice-and-olivia');
  expect(chainSlug('Canadian Tire Gas+')).toBe('canadian-tire-gas-plus');
  expect(chainSlug('Brioche Dorée')).toBe('brioche-doree');
});

maybe('the rule gives Radar\'s own slug for at least 94 % of its 3,464 chains', () => {
  const rows = fs.readFileSync(CHAINS, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t')).filter((r) => r.length >= 2);
  expect(rows.length).toBe(3464);
  const same = rows.filter(([slug, name]) => chainSlug(name) === slug).length;
  // The rest are editorial: "Dunkin'" is dunkin-donuts, "CVS Pharmacy" is cvs (docs/places.md).
  expect(same / rows.length).toBeGreaterThanOrEqual(0.94);
});

test('names compare without case, accents, apostrophes or punctuation', () => {
  expect(normalisedName("McDonald’s")).toBe(normalisedName('MCDONALDS'));
  expect(normalisedName('Café  de Paris')).toBe('cafe de paris');
});

maybe('chains matched from name-suggestion-index get Radar\'s slug where Radar has the chain', () => {
  const brands = loadBrandIndex();
  const rows = fs.readFileSync(CHAINS, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t')).filter((r) => r.length >= 2);
  let matched = 0;
  let same = 0;
  for (const [slug, name] of rows) {
    const brand = brands.match({ brand: name });
    if (!brand) continue;
    matched++;
    if (brand.slug === slug) same++;
  }
  console.log(`chain slugs: ${matched} of Radar's ${rows.length} chains found in name-suggestion-index; ${same} get Radar's slug`);
  expect(matched).toBeGreaterThan(1000);
  expect(same / matched).toBeGreaterThanOrEqual(0.8);
});
