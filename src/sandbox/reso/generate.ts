import { mulberry32 } from '../random.ts';
import type { ResoRecord } from './odata-eval.ts';
import {
  APPLIANCES,
  CITIES,
  COOLING,
  FIRST_NAMES,
  HEATING,
  HOA_INCLUDES,
  LAST_NAMES,
  OFFICE_WORDS,
  PETS_LEASE,
  STREETS,
  SUFFIXES,
  VIEWS,
} from './pools.ts';

/** How the generated feed looks; every listing is a pure function of these and its index. */
export interface GeneratorOptions {
  seed: number;
  /** Prefix of ListingKey, ListingId, MemberKey… (MLS Grid prefixes every key with the MLS's code). */
  keyPrefix: string;
  /** Value of OriginatingSystemName. */
  originatingSystem: string;
  /** ModificationTimestamp of listing 0, in ms since the epoch. */
  baseTime: number;
  /** Time between two groups of tied listings, in ms. */
  stepMs: number;
  /**
   * Listings sharing one ModificationTimestamp: listings i and j tie when floor(i/n) = floor(j/n).
   * With 3, every page size that is not a multiple of 3 (200, 500, 1000, 5000) ends inside a tie.
   */
  tieGroup: number;
  /** Host of the generated MediaURLs. */
  mediaHost: string;
  /** Listings per agent (the Member resource has ceil(N / this) records). */
  listingsPerAgent: number;
  /** Agents per office. */
  agentsPerOffice: number;
}

/** The ListingKey of index i: fixed width, so key order is index order. */
export function listingKey(options: GeneratorOptions, index: number): string {
  return options.keyPrefix + String(100000000 + index);
}

/** The index of a ListingKey, or undefined when it is not one of this feed's keys. */
export function indexOfKey(options: GeneratorOptions, key: string): number | undefined {
  if (!key.startsWith(options.keyPrefix)) return undefined;
  const digits = key.slice(options.keyPrefix.length);
  if (!/^\d{9}$/.test(digits)) return undefined;
  const index = Number(digits) - 100000000;
  return index >= 0 ? index : undefined;
}

export function baseTimestamp(options: GeneratorOptions, index: number): number {
  return options.baseTime + Math.floor(index / options.tieGroup) * options.stepMs;
}

/** One PRNG per (seed, index), so listing i never depends on listing i-1: generation is lazy. */
export function randomFor(seed: number, index: number, salt = 0): () => number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (index + 0x7f4a7c15), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13) ^ salt, 0xc2b2ae35) >>> 0;
  return mulberry32(h ^ (h >>> 16));
}

type Kind = 'house' | 'condo' | 'lease' | 'land' | 'ranch' | 'commercial';

function kindOf(r: number): Kind {
  if (r < 0.52) return 'house';
  if (r < 0.64) return 'condo';
  if (r < 0.76) return 'lease';
  if (r < 0.88) return 'land';
  if (r < 0.95) return 'ranch';
  return 'commercial';
}

const STATUSES: [number, string][] = [
  [0.76, 'Active'],
  [0.84, 'Active Under Contract'],
  [0.91, 'Pending'],
  [0.96, 'Coming Soon'],
  [1, 'Closed'],
];

/**
 * The Property record of listing `index`, before any change a test made: RESO Data Dictionary field
 * names, with the fields a kind does not have left out (land and ranches have no BedroomsTotal).
 */
export function generateListing(options: GeneratorOptions, index: number): ResoRecord {
  const random = randomFor(options.seed, index);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
  const kind = kindOf(random());
  const place = pick(CITIES);
  const modified = baseTimestamp(options, index);
  const agent = agentOf(options, index);
  const office = officeOfAgent(options, agent);
  const status = STATUSES.find(([limit]) => random() < limit)?.[1] ?? 'Active';
  const record: ResoRecord = {
    ListingKey: listingKey(options, index),
    ListingId: `${options.keyPrefix}${2000000 + index}`,
    OriginatingSystemName: options.originatingSystem,
    StandardStatus: status,
    ...typeFields(kind, random, int, pick),
    UnparsedAddress: `${int(100, 19999)} ${pick(STREETS)} ${pick(SUFFIXES)}`,
    City: place.city,
    StateOrProvince: place.state,
    PostalCode: String(place.zip + int(0, 9)),
    CountyOrParish: place.county,
    Latitude: round(place.lat + (random() - 0.5) * 0.2, 6),
    Longitude: round(place.lon + (random() - 0.5) * 0.2, 6),
    ModificationTimestamp: new Date(modified).toISOString(),
    PhotosChangeTimestamp: new Date(modified - int(0, 48) * 3_600_000).toISOString(),
    ListingContractDate: new Date(modified - int(1, 120) * 86_400_000).toISOString().slice(0, 10),
    ...agentFields(options, agent),
    ...officeFields(options, office),
    PublicRemarks: `${kind === 'land' || kind === 'ranch' ? 'Acreage' : 'Home'} in ${place.city} near ${pick(STREETS)} park.`,
  };
  return record;
}

function typeFields(
  kind: Kind,
  random: () => number,
  int: (min: number, max: number) => number,
  pick: <T>(list: readonly T[]) => T,
): ResoRecord {
  if (kind === 'land' || kind === 'ranch') {
    const acres = kind === 'land' ? round(0.25 + random() * 40, 2) : round(20 + random() * 600, 1);
    const fields: ResoRecord = {
      PropertyType: kind === 'land' ? 'Land' : 'Farm',
      PropertySubType: kind === 'land' ? 'Unimproved Land' : 'Ranch',
      ListPrice: Math.round((acres * int(8000, 40000)) / 100) * 100,
      LotSizeArea: acres,
      LotSizeUnits: 'Acres',
      View: pick(VIEWS),
      WaterfrontYN: random() < 0.15,
    };
    // A ranch may have a house on it, but the MLS still leaves BedroomsTotal out.
    if (kind === 'ranch' && random() < 0.5)
      Object.assign(fields, { LivingArea: int(1200, 4000), YearBuilt: int(1940, 2015) });
    return fields;
  }
  const lease = kind === 'lease';
  const living = kind === 'condo' ? int(550, 1900) : int(900, 5200);
  const hoa = kind === 'condo' || random() < 0.4;
  const fields: ResoRecord = {
    PropertyType: lease ? 'Residential Lease' : kind === 'commercial' ? 'Commercial Sale' : 'Residential',
    PropertySubType:
      kind === 'condo'
        ? 'Condominium'
        : kind === 'commercial'
          ? 'Office'
          : pick(['Single Family Residence', 'Townhouse']),
    ListPrice: lease ? int(12, 60) * 100 : Math.round((living * int(180, 520)) / 1000) * 1000,
    LivingArea: living,
    LotSizeArea: kind === 'condo' ? undefined : round(0.08 + random() * 0.9, 3),
    LotSizeUnits: kind === 'condo' ? undefined : 'Acres',
    YearBuilt: int(1950, 2025),
    Heating: pick(HEATING),
    Cooling: pick(COOLING),
    GarageSpaces: kind === 'condo' ? int(0, 1) : int(0, 3),
    View: pick(VIEWS),
    WaterfrontYN: random() < 0.08,
    PoolPrivateYN: random() < 0.2,
    Appliances: pick(APPLIANCES),
    AssociationYN: hoa,
    AssociationFee: hoa ? int(3, 60) * 10 : undefined,
    AssociationFeeIncludes: hoa ? pick(HOA_INCLUDES) : undefined,
  };
  if (kind !== 'commercial') {
    fields.BedroomsTotal = kind === 'condo' ? int(0, 3) : int(2, 6);
    fields.BathroomsTotalInteger = int(1, 4);
  }
  if (lease) fields.PetsAllowed = pick(PETS_LEASE);
  return dropUndefined(fields);
}

export function agentCount(options: GeneratorOptions, listings: number): number {
  return Math.max(1, Math.ceil(listings / options.listingsPerAgent));
}

/** Agents are drawn from a fixed roster of 1000 per 20 000 listings; the Member resource serves them. */
function agentOf(options: GeneratorOptions, index: number): number {
  return Math.floor(index / options.listingsPerAgent);
}

function officeOfAgent(options: GeneratorOptions, agent: number): number {
  return Math.floor(agent / options.agentsPerOffice);
}

export function agentFields(options: GeneratorOptions, agent: number): ResoRecord {
  const random = randomFor(options.seed, agent, 0xa6e47);
  const first = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]!;
  const last = LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]!;
  const fields: ResoRecord = {
    ListAgentKey: `${options.keyPrefix}A${100000 + agent}`,
    ListAgentMlsId: `${options.keyPrefix}${700000 + agent}`,
    ListAgentFullName: `${first} ${last}`,
    ListAgentDirectPhone: phone(random),
  };
  // Some agents publish no e-mail: the feed leaves it out.
  if (random() < 0.85) fields.ListAgentEmail = `${first}.${last}${agent}@example.com`.toLowerCase();
  return fields;
}

export function officeFields(options: GeneratorOptions, office: number): ResoRecord {
  const random = randomFor(options.seed, office, 0x0ff1ce);
  const name = `${LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]} ${OFFICE_WORDS[Math.floor(random() * OFFICE_WORDS.length)]}`;
  return {
    ListOfficeKey: `${options.keyPrefix}O${10000 + office}`,
    ListOfficeMlsId: `${options.keyPrefix}${24000 + office}`,
    ListOfficeName: name,
    ListOfficePhone: phone(random),
    ListOfficeEmail: `info${office}@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example.com`,
  };
}

export function officeOf(options: GeneratorOptions, agent: number): number {
  return officeOfAgent(options, agent);
}

function phone(random: () => number): string {
  const n = () => Math.floor(random() * 10);
  return `(512) ${2 + (n() % 8)}${n()}${n()}-${n()}${n()}${n()}${n()}`;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function dropUndefined(record: ResoRecord): ResoRecord {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}
