/**
 * Word pools of the generated listings. Central Texas, because MLS Grid's documented example MLS
 * (ACTRIS) is Austin's; the values are plain, made-up data, never copied from a feed.
 */
export interface CityPool {
  city: string;
  state: string;
  zip: number;
  lat: number;
  lon: number;
  county: string;
}

export const CITIES: readonly CityPool[] = [
  { city: 'Austin', state: 'TX', zip: 78701, lat: 30.2672, lon: -97.7431, county: 'Travis' },
  { city: 'Round Rock', state: 'TX', zip: 78664, lat: 30.5083, lon: -97.6789, county: 'Williamson' },
  { city: 'Georgetown', state: 'TX', zip: 78626, lat: 30.6333, lon: -97.6779, county: 'Williamson' },
  { city: 'Pflugerville', state: 'TX', zip: 78660, lat: 30.4394, lon: -97.62, county: 'Travis' },
  { city: 'Cedar Park', state: 'TX', zip: 78613, lat: 30.5052, lon: -97.8203, county: 'Williamson' },
  { city: 'Leander', state: 'TX', zip: 78641, lat: 30.5788, lon: -97.8531, county: 'Williamson' },
  { city: 'San Marcos', state: 'TX', zip: 78666, lat: 29.8833, lon: -97.9414, county: 'Hays' },
  { city: 'Dripping Springs', state: 'TX', zip: 78620, lat: 30.1902, lon: -98.0867, county: 'Hays' },
  { city: 'Bastrop', state: 'TX', zip: 78602, lat: 30.1105, lon: -97.3153, county: 'Bastrop' },
  { city: 'Lakeway', state: 'TX', zip: 78734, lat: 30.3638, lon: -97.9795, county: 'Travis' },
  { city: 'Marble Falls', state: 'TX', zip: 78654, lat: 30.5782, lon: -98.2728, county: 'Burnet' },
  { city: 'Lockhart', state: 'TX', zip: 78644, lat: 29.8849, lon: -97.67, county: 'Caldwell' },
];

export const STREETS = [
  'Oak Hollow',
  'Pecan',
  'Live Oak',
  'Cypress Creek',
  'Bluebonnet',
  'Mesquite',
  'Lantana',
  'Limestone',
  'Cedar Ridge',
  'Windmill',
  'Sunset Canyon',
  'Brushy Creek',
  'Hill Country',
  'Riverbend',
  'Mockingbird',
  'Prairie Dawn',
  'Spanish Oak',
  'Armadillo',
  'Longhorn',
  'Saddle',
] as const;

export const SUFFIXES = ['Dr', 'Ln', 'St', 'Trl', 'Cv', 'Blvd', 'Ct', 'Way', 'Rd', 'Pass'] as const;

export const FIRST_NAMES = [
  'Maria',
  'James',
  'Ana',
  'Robert',
  'Linda',
  'Carlos',
  'Patricia',
  'Michael',
  'Sofia',
  'David',
  'Jennifer',
  'Luis',
  'Emily',
  'Daniel',
  'Grace',
  'Hector',
  'Olivia',
  'Thomas',
  'Mei',
  'Andre',
] as const;

export const LAST_NAMES = [
  'Garcia',
  'Smith',
  'Nguyen',
  'Johnson',
  'Martinez',
  'Brown',
  'Lee',
  'Davis',
  'Lopez',
  'Wilson',
  'Patel',
  'Anderson',
  'Thomas',
  'Hernandez',
  'Moore',
  'Kim',
  'Jackson',
  'Walker',
  'Young',
  'King',
] as const;

export const OFFICE_WORDS = ['Realty', 'Properties', 'Real Estate', 'Homes', 'Group', 'Land Co'] as const;

export const HEATING = [
  ['Central'],
  ['Central', 'Natural Gas'],
  ['Electric'],
  ['Heat Pump'],
  ['Fireplace(s)', 'Central'],
];
export const COOLING = [['Central Air'], ['Central Air', 'Ceiling Fan(s)'], ['Electric'], ['Window Unit(s)']];
export const VIEWS = [['None'], ['Hill Country'], ['Trees/Woods'], ['Lake'], ['Park/Greenbelt'], ['City']];
export const APPLIANCES = [
  ['Dishwasher', 'Microwave', 'Refrigerator'],
  ['Built-In Gas Range', 'Dishwasher', 'Disposal'],
  ['Electric Range', 'Microwave'],
  ['Dishwasher', 'Microwave', 'Stainless Steel Appliance(s)', 'Washer', 'Dryer'],
];
export const HOA_INCLUDES = [
  ['Common Area Maintenance'],
  ['Common Area Maintenance', 'Insurance'],
  ['Trash', 'Water', 'Sewer'],
  ['Maintenance Grounds', 'Security'],
];
export const PETS_LEASE = [['Cats OK', 'Dogs OK'], ['Cats OK'], ['No'], ['Breed Restrictions', 'Dogs OK']];
