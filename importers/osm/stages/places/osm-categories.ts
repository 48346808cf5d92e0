// OSM tags → Radar place categories, as a reviewed table. Each row names one OSM `key=value` and the
// Radar category path (slugs from the top down, as in Radar's published taxonomy) it means. A place's
// `categories` are every slug along its path, so a parent category matches its descendants by a plain
// membership test. test/data/places/osm-categories.test.ts checks every path against Radar's list.
//
// Review rules: map only where the meaning is the same (amenity=pub is a pub, not "a bar"); prefer the
// most specific Radar category that is still true; leave out what Radar has no category for rather than
// forcing a near miss. `cuisine` refines restaurants and fast food only.
import type { OsmTags } from '../../stage';

export type CategoryRow = readonly [key: string, value: string, path: string];

/** Primary tags, checked in this key order: the first key a POI carries that has a row decides. */
export const PRIMARY_KEYS = ['aeroway', 'amenity', 'shop', 'tourism', 'leisure', 'craft', 'office', 'healthcare', 'railway', 'public_transport', 'historic', 'building'] as const;

export const CATEGORY_ROWS: readonly CategoryRow[] = [
  ['aeroway', 'aerodrome', 'travel-transportation/transportation-terminal/airport'],
  ['aeroway', 'terminal', 'travel-transportation/transportation-terminal/airport'],

  ['amenity', 'restaurant', 'food-beverage/restaurant'],
  ['amenity', 'fast_food', 'food-beverage/restaurant/fast-food-restaurant'],
  ['amenity', 'cafe', 'food-beverage/cafe'],
  ['amenity', 'bar', 'food-beverage/bar'],
  ['amenity', 'pub', 'food-beverage/bar/pub'],
  ['amenity', 'biergarten', 'food-beverage/bar'],
  ['amenity', 'ice_cream', 'food-beverage/dessert-restaurant/ice-cream-parlor'],
  ['amenity', 'food_court', 'food-beverage/restaurant'],
  ['amenity', 'marketplace', 'food-beverage/farmers-market'],
  ['amenity', 'bank', 'finance/bank'],
  ['amenity', 'atm', 'finance/automated-teller-machine-atm'],
  ['amenity', 'bureau_de_change', 'finance/financial-services/currency-exchange'],
  ['amenity', 'fuel', 'automotive/automotive-services/gas-station'],
  ['amenity', 'car_wash', 'automotive/automotive-services/car-wash-detailing'],
  ['amenity', 'car_rental', 'travel-transportation/rental-shop/car-rental'],
  ['amenity', 'bicycle_rental', 'travel-transportation/rental-shop/bike-rental-bike-share'],
  ['amenity', 'parking', 'local-services/parking'],
  ['amenity', 'taxi', 'travel-transportation/transportation-service/taxi'],
  ['amenity', 'bus_station', 'travel-transportation/transportation-terminal/bus-station'],
  ['amenity', 'ferry_terminal', 'travel-transportation/ferry-boat-company'],
  ['amenity', 'pharmacy', 'medical-health/pharmacy'],
  ['amenity', 'hospital', 'medical-health/medical-center/hospital'],
  ['amenity', 'clinic', 'medical-health/medical-center'],
  ['amenity', 'doctors', 'medical-health/doctor'],
  ['amenity', 'dentist', 'medical-health/dentist'],
  ['amenity', 'nursing_home', 'medical-health/medical-center/nursing-home'],
  ['amenity', 'veterinary', 'local-services/pet-service/veterinarian'],
  ['amenity', 'school', 'education/school'],
  ['amenity', 'kindergarten', 'education/school/preschool'],
  ['amenity', 'childcare', 'local-services/home-services/child-care'],
  ['amenity', 'university', 'education/university'],
  ['amenity', 'college', 'education/university'],
  ['amenity', 'driving_school', 'education/specialty-school/driving-school'],
  ['amenity', 'music_school', 'education/specialty-school/music-lessons-instruction'],
  ['amenity', 'dancing_school', 'education/specialty-school/dance-school'],
  ['amenity', 'library', 'public-services-government/library'],
  ['amenity', 'community_centre', 'public-services-government/community-center'],
  ['amenity', 'social_facility', 'public-services-government/social-services'],
  ['amenity', 'townhall', 'government-building'],
  ['amenity', 'courthouse', 'government-building/courthouse'],
  ['amenity', 'fire_station', 'government-building/fire-station'],
  ['amenity', 'police', 'government-building/police-station'],
  ['amenity', 'post_office', 'government-building/post-office'],
  ['amenity', 'prison', 'government-building/prison-correctional-facility'],
  ['amenity', 'cinema', 'arts-entertainment/movie-theatre'],
  ['amenity', 'theatre', 'arts-entertainment/concert-venue/theatre'],
  ['amenity', 'arts_centre', 'arts-entertainment/concert-venue'],
  ['amenity', 'nightclub', 'arts-entertainment/night-club'],
  ['amenity', 'casino', 'arts-entertainment/casino'],
  ['amenity', 'internet_cafe', 'local-services/internet-cafe'],
  ['amenity', 'place_of_worship', 'religion'],
  ['amenity', 'funeral_hall', 'local-services/funeral-service'],
  ['amenity', 'recycling', 'commercial-industrial/environmental/recycling-facility'],
  ['amenity', 'fountain', 'outdoor-places/landmark/statue-fountain'],

  ['shop', 'supermarket', 'food-beverage/food-grocery/supermarket'],
  ['shop', 'convenience', 'food-beverage/convenience-store'],
  ['shop', 'greengrocer', 'food-beverage/food-grocery/specialty-grocery-store'],
  ['shop', 'grocery', 'food-beverage/food-grocery'],
  ['shop', 'deli', 'food-beverage/deli'],
  ['shop', 'bakery', 'food-beverage/bakery'],
  ['shop', 'pastry', 'food-beverage/bakery'],
  ['shop', 'butcher', 'food-beverage/butcher'],
  ['shop', 'seafood', 'food-beverage/food-grocery/fish-market'],
  ['shop', 'health_food', 'food-beverage/food-grocery/health-food-store'],
  ['shop', 'alcohol', 'food-beverage/liquor-store'],
  ['shop', 'wine', 'food-beverage/liquor-store'],
  ['shop', 'ice_cream', 'food-beverage/dessert-restaurant/ice-cream-parlor'],
  ['shop', 'clothes', 'shopping-retail/apparel/clothing-store'],
  ['shop', 'shoes', 'shopping-retail/apparel/clothing-store/shoe-store'],
  ['shop', 'jewelry', 'shopping-retail/apparel/accessories-store/jewelry-store'],
  ['shop', 'bag', 'shopping-retail/apparel/accessories-store'],
  ['shop', 'fashion_accessories', 'shopping-retail/apparel/accessories-store'],
  ['shop', 'boutique', 'shopping-retail/boutique-store'],
  ['shop', 'department_store', 'shopping-retail/department-store'],
  ['shop', 'mall', 'shopping-retail/shopping-mall'],
  ['shop', 'variety_store', 'shopping-retail/discount-store'],
  ['shop', 'wholesale', 'shopping-retail/big-box-retailer'],
  ['shop', 'second_hand', 'shopping-retail/thrift-or-consignment-store'],
  ['shop', 'charity', 'shopping-retail/thrift-or-consignment-store'],
  ['shop', 'books', 'shopping-retail/book-store'],
  ['shop', 'gift', 'shopping-retail/gift-shop'],
  ['shop', 'electronics', 'shopping-retail/electronics-store'],
  ['shop', 'computer', 'shopping-retail/electronics-store/computer-store'],
  ['shop', 'hifi', 'shopping-retail/electronics-store/audiovisual-equipment'],
  ['shop', 'mobile_phone', 'shopping-retail/mobile-phone-shop'],
  ['shop', 'video_games', 'shopping-retail/video-game-store'],
  ['shop', 'video', 'shopping-retail/dvd-video-store'],
  ['shop', 'toys', 'shopping-retail/toy-store'],
  ['shop', 'sports', 'shopping-retail/sporting-goods-store'],
  ['shop', 'outdoor', 'shopping-retail/sports-outdoors'],
  ['shop', 'bicycle', 'shopping-retail/sporting-goods-store/bike-shop'],
  ['shop', 'musical_instrument', 'shopping-retail/musical-instrument-store'],
  ['shop', 'art', 'arts-entertainment/art-gallery'],
  ['shop', 'craft', 'shopping-retail/arts-crafts-supply-store'],
  ['shop', 'fabric', 'shopping-retail/fabric-store'],
  ['shop', 'beauty', 'spa-beauty-personal-care/beauty-salon'],
  ['shop', 'cosmetics', 'shopping-retail/beauty-store/cosmetics-beauty-supply'],
  ['shop', 'perfumery', 'shopping-retail/beauty-store'],
  ['shop', 'hairdresser', 'spa-beauty-personal-care/beauty-salon/hair-salon'],
  ['shop', 'massage', 'spa-beauty-personal-care/spa/massage'],
  ['shop', 'tattoo', 'spa-beauty-personal-care/tattoo-piercing-shop'],
  ['shop', 'optician', 'medical-health/optician'],
  ['shop', 'chemist', 'medical-health/pharmacy'],
  ['shop', 'medical_supply', 'medical-health/pharmacy/medical-supplies'],
  ['shop', 'hardware', 'shopping-retail/home-garden-store/hardware-store'],
  ['shop', 'doityourself', 'shopping-retail/home-garden-store/building-material-store'],
  ['shop', 'garden_centre', 'shopping-retail/home-garden-store/garden-center'],
  ['shop', 'furniture', 'shopping-retail/home-garden-store/furniture-store'],
  ['shop', 'bed', 'shopping-retail/home-garden-store/mattresses-bedding'],
  ['shop', 'carpet', 'shopping-retail/home-garden-store/carpet-flooring-store'],
  ['shop', 'flooring', 'shopping-retail/home-garden-store/carpet-flooring-store'],
  ['shop', 'houseware', 'shopping-retail/home-garden-store/housewares'],
  ['shop', 'appliance', 'shopping-retail/home-garden-store/appliance-store'],
  ['shop', 'interior_decoration', 'shopping-retail/home-garden-store'],
  ['shop', 'florist', 'local-services/florist'],
  ['shop', 'pet', 'shopping-retail/pet-store'],
  ['shop', 'pet_grooming', 'local-services/pet-service'],
  ['shop', 'newsagent', 'shopping-retail/newsagent-newsstand'],
  ['shop', 'kiosk', 'shopping-retail/newsagent-newsstand'],
  ['shop', 'stationery', 'shopping-retail/office-equipment-store'],
  ['shop', 'tobacco', 'shopping-retail/tobacco-store'],
  ['shop', 'e-cigarette', 'shopping-retail/ecigarette-store'],
  ['shop', 'lottery', 'shopping-retail/lottery-retailer'],
  ['shop', 'pawnbroker', 'shopping-retail/pawn-shop'],
  ['shop', 'photo', 'local-services/photographic-services-equipment/camera-store'],
  ['shop', 'dry_cleaning', 'local-services/dry-cleaner'],
  ['shop', 'laundry', 'local-services/laundromat'],
  ['shop', 'tailor', 'local-services/sewing-seamstress'],
  ['shop', 'shoe_repair', 'local-services/shoe-repair-shop'],
  ['shop', 'locksmith', 'local-services/locksmith'],
  ['shop', 'copyshop', 'local-services/printing-service'],
  ['shop', 'funeral_directors', 'local-services/funeral-service'],
  ['shop', 'travel_agency', 'travel-transportation/travel-company/travel-agency'],
  ['shop', 'car', 'automotive/automotive-dealership/car-dealership'],
  ['shop', 'motorcycle', 'automotive/automotive-dealership/motorcycles'],
  ['shop', 'boat', 'automotive/automotive-dealership/boat-dealer'],
  ['shop', 'car_repair', 'automotive/automotive-services/automotive-repair'],
  ['shop', 'car_parts', 'automotive/automotive-store/automotive-parts-accessories'],
  ['shop', 'tyres', 'automotive/automotive-services/tire-dealer'],

  ['tourism', 'hotel', 'hotel-lodging/hotel'],
  ['tourism', 'motel', 'hotel-lodging/motel'],
  ['tourism', 'hostel', 'hotel-lodging/hostel'],
  ['tourism', 'guest_house', 'hotel-lodging/bed-and-breakfast'],
  ['tourism', 'chalet', 'hotel-lodging/cottage'],
  ['tourism', 'alpine_hut', 'hotel-lodging/cabin'],
  ['tourism', 'camp_site', 'hotel-lodging/campground'],
  ['tourism', 'caravan_site', 'hotel-lodging/rv-park'],
  ['tourism', 'museum', 'arts-entertainment/museum'],
  ['tourism', 'gallery', 'arts-entertainment/art-gallery'],
  ['tourism', 'zoo', 'arts-entertainment/zoo'],
  ['tourism', 'aquarium', 'arts-entertainment/zoo'],
  ['tourism', 'theme_park', 'arts-entertainment/amusement-park-ride'],
  ['tourism', 'attraction', 'outdoor-places/landmark'],
  ['tourism', 'viewpoint', 'outdoor-places/recreation-spot'],
  ['tourism', 'picnic_site', 'outdoor-places/park/picnic-ground'],
  ['tourism', 'information', 'travel-transportation/travel-services/tourist-information'],
  ['tourism', 'artwork', 'outdoor-places/landmark'],

  ['leisure', 'park', 'outdoor-places/park'],
  ['leisure', 'garden', 'outdoor-places/public-garden'],
  ['leisure', 'nature_reserve', 'outdoor-places/park/nature-preserve'],
  ['leisure', 'playground', 'outdoor-places/park/playground'],
  ['leisure', 'fitness_centre', 'sports-recreation/recreation-fitness-venue/gym'],
  ['leisure', 'sports_centre', 'sports-recreation/recreation-fitness-venue/fitness-venue'],
  ['leisure', 'stadium', 'sports-recreation/sports-venue-stadium'],
  ['leisure', 'golf_course', 'sports-recreation/recreation-fitness-venue/golf-course'],
  ['leisure', 'swimming_pool', 'sports-recreation/recreation-fitness-venue/swimming-pool'],
  ['leisure', 'water_park', 'arts-entertainment/amusement-park-ride/water-park'],
  ['leisure', 'bowling_alley', 'sports-recreation/recreation-fitness-venue/bowling-alley'],
  ['leisure', 'skatepark', 'sports-recreation/recreation-fitness-venue/skateboard-park'],
  ['leisure', 'horse_riding', 'sports-recreation/recreation-fitness-venue/equestrian-facility'],
  ['leisure', 'marina', 'city-infrastructure/marina'],
  ['leisure', 'dance', 'arts-entertainment/night-club'],
  ['leisure', 'amusement_arcade', 'arts-entertainment'],

  ['craft', 'brewery', 'food-beverage/brewery'],
  ['craft', 'winery', 'food-beverage/winery-vineyard'],
  ['craft', 'caterer', 'food-beverage/caterer'],
  ['craft', 'carpenter', 'local-services/home-improvement/carpenter'],
  ['craft', 'electrician', 'local-services/home-improvement/electrician'],
  ['craft', 'painter', 'local-services/home-improvement/house-painter'],
  ['craft', 'photographer', 'local-services/photographic-services-equipment/photographer'],
  ['craft', 'tailor', 'local-services/sewing-seamstress'],
  ['craft', 'shoemaker', 'local-services/shoe-repair-shop'],

  ['office', 'lawyer', 'legal/law-firm'],
  ['office', 'notary', 'legal/legal-services/notary-public'],
  ['office', 'accountant', 'finance/financial-services/accountant'],
  ['office', 'tax_advisor', 'finance/financial-services/tax-preparation'],
  ['office', 'insurance', 'finance/insurance-company'],
  ['office', 'estate_agent', 'real-estate/real-estate-agent'],
  ['office', 'employment_agency', 'local-services/business-services/employment-agency'],
  ['office', 'advertising_agency', 'advertising-marketing'],
  ['office', 'architect', 'local-services/home-improvement/architectural-designer'],
  ['office', 'it', 'science-engineering/information-technology-company'],
  ['office', 'telecommunication', 'science-engineering/information-technology-company/telecom'],
  ['office', 'government', 'public-services-government'],
  ['office', 'ngo', 'public-services-government/non-profit'],
  ['office', 'travel_agent', 'travel-transportation/travel-company/travel-agency'],
  ['office', 'newspaper', 'media-news-company/publisher'],
  ['office', 'publisher', 'media-news-company/publisher'],

  ['healthcare', 'hospital', 'medical-health/medical-center/hospital'],
  ['healthcare', 'laboratory', 'medical-health/medical-center/medical-lab'],
  ['healthcare', 'optometrist', 'medical-health/doctor/optometrist'],
  ['healthcare', 'chiropractor', 'medical-health/medical-service/alternative-holistic-health/chiropractor'],
  ['healthcare', 'alternative', 'medical-health/medical-service/alternative-holistic-health'],
  ['healthcare', 'dentist', 'medical-health/dentist'],
  ['healthcare', 'doctor', 'medical-health/doctor'],
  ['healthcare', 'pharmacy', 'medical-health/pharmacy'],

  ['railway', 'station', 'travel-transportation/transportation-terminal/train-station/railway-station'],
  ['railway', 'halt', 'travel-transportation/transportation-terminal/train-station'],
  ['railway', 'tram_stop', 'travel-transportation/transportation-terminal/train-station/light-rail-station'],
  ['railway', 'subway_entrance', 'travel-transportation/transportation-terminal/train-station/subway-station'],
  ['public_transport', 'station', 'travel-transportation/transportation-terminal'],

  ['historic', 'monument', 'outdoor-places/landmark'],
  ['historic', 'memorial', 'outdoor-places/landmark'],
  ['historic', 'castle', 'outdoor-places/landmark'],

  ['building', 'apartments', 'residence-other/apartment-condo-building'],
];

/** `cuisine` of a restaurant or fast-food place → a more specific Radar restaurant category. */
export const CUISINE_ROWS: ReadonlyArray<readonly [cuisine: string, path: string]> = [
  ['american', 'food-beverage/restaurant/american-restaurant'],
  ['burger', 'food-beverage/restaurant/burger-restaurant'],
  ['chicken', 'food-beverage/restaurant/chicken-restaurant'],
  ['pizza', 'food-beverage/restaurant/pizza-place'],
  ['italian', 'food-beverage/restaurant/italian-restaurant'],
  ['french', 'food-beverage/restaurant/french-restaurant'],
  ['german', 'food-beverage/restaurant/german-restaurant'],
  ['indian', 'food-beverage/restaurant/indian-restaurant'],
  ['mexican', 'food-beverage/restaurant/latin-american-restaurant/mexican-restaurant'],
  ['latin_american', 'food-beverage/restaurant/latin-american-restaurant'],
  ['greek', 'food-beverage/restaurant/mediterranean-restaurant/greek-restaurant'],
  ['mediterranean', 'food-beverage/restaurant/mediterranean-restaurant'],
  ['turkish', 'food-beverage/restaurant/middle-eastern-restaurant/turkish-restaurant'],
  ['kebab', 'food-beverage/restaurant/middle-eastern-restaurant/turkish-restaurant/kebab-shop'],
  ['middle_eastern', 'food-beverage/restaurant/middle-eastern-restaurant'],
  ['lebanese', 'food-beverage/restaurant/middle-eastern-restaurant'],
  ['asian', 'food-beverage/restaurant/asian-restaurant'],
  ['chinese', 'food-beverage/restaurant/asian-restaurant/chinese-restaurant'],
  ['japanese', 'food-beverage/restaurant/asian-restaurant/japanese-restaurant'],
  ['sushi', 'food-beverage/restaurant/asian-restaurant/japanese-restaurant/sushi-restaurant'],
  ['korean', 'food-beverage/restaurant/asian-restaurant/korean-restaurant'],
  ['thai', 'food-beverage/restaurant/asian-restaurant/thai-restaurant'],
  ['noodle', 'food-beverage/restaurant/asian-restaurant/noodle-house'],
  ['ramen', 'food-beverage/restaurant/asian-restaurant/noodle-house'],
  ['seafood', 'food-beverage/restaurant/seafood-restaurant'],
  ['fish_and_chips', 'food-beverage/restaurant/fish-chips-shop'],
  ['steak_house', 'food-beverage/restaurant/steakhouse'],
  ['breakfast', 'food-beverage/restaurant/breakfast-brunch-restaurant'],
  ['sandwich', 'food-beverage/sandwich-shop'],
  ['ice_cream', 'food-beverage/dessert-restaurant/ice-cream-parlor'],
  ['coffee_shop', 'food-beverage/cafe'],
  ['donut', 'food-beverage/bakery'],
];

/** `religion` refines places of worship. */
export const RELIGION_ROWS: ReadonlyArray<readonly [religion: string, path: string]> = [
  ['christian', 'religion/church'],
  ['muslim', 'religion/mosque'],
];

const BY_TAG = new Map(CATEGORY_ROWS.map(([k, v, path]) => [`${k}=${v}`, path]));
const BY_CUISINE = new Map(CUISINE_ROWS);
const BY_RELIGION = new Map(RELIGION_ROWS);

/** The Radar category path of a POI, or undefined when none of its tags has a row. */
export function categoryPathOf(tags: OsmTags): string | undefined {
  for (const key of PRIMARY_KEYS) {
    const value = tags[key];
    if (value === undefined) continue;
    const path = BY_TAG.get(`${key}=${value}`);
    if (path === undefined) continue;
    // Fast food stays fast food (Radar files McDonald's there, not under burger restaurants).
    if (key === 'amenity' && value === 'restaurant' && tags.cuisine !== undefined) {
      // "burger;american": the first listed cuisine is the main one.
      const refined = BY_CUISINE.get(tags.cuisine.split(';')[0].trim().toLowerCase());
      if (refined !== undefined) return refined;
    }
    if (key === 'amenity' && value === 'place_of_worship' && tags.religion !== undefined) return BY_RELIGION.get(tags.religion) ?? path;
    return path;
  }
  return undefined;
}

/** A path's slugs from the top down: "food-beverage/restaurant/pizza-place" → all three. */
export function categoriesOfPath(path: string): string[] {
  return path.split('/');
}
