import { MEMBER_FIELDS, OFFICE_FIELDS, PROPERTY_FIELDS } from './fields.ts';
import { agentCount, agentFields, type GeneratorOptions, officeFields, officeOf } from './generate.ts';
import type { ResoListingStore as ListingStore } from './listing-store.ts';
import type { ResoRecord } from './odata-eval.ts';

/**
 * One entity set as the paging code sees it: records by index, an order by (ModificationTimestamp,
 * index) and key order (= index order, keys are fixed width).
 */
export interface Resource {
  readonly name: string;
  readonly keyField: string;
  readonly fields: ReadonlySet<string>;
  /** Records ever generated (visible or not); key order runs over 0..size()-1. */
  size(): number;
  /** Index at a position of the time order. */
  atTime(position: number): number;
  /** First time-order position whose timestamp is >= `time`. */
  lowerBound(time: number): number;
  timestampOf(index: number): number;
  visible(index: number, now: number): boolean;
  record(index: number): ResoRecord;
  /** The expanded Media of a record, for resources that have it. */
  media?(index: number, record: ResoRecord): ResoRecord[];
  indexOfKey(key: string): number | undefined;
  /** Moves whenever a record changes, so cached positions are dropped. */
  version(): number;
}

/** Turns a stored listing into what the provider serves (MLS Grid adds MlgCanView, for one). */
export type Decorate = (record: ResoRecord, deleted: boolean) => ResoRecord;

export function propertyResource(
  store: ListingStore,
  decorate: Decorate,
  extraFields: string[] = [],
): Resource {
  const timeline = () => store.timeline();
  return {
    name: 'Property',
    keyField: 'ListingKey',
    fields: new Set<string>([...PROPERTY_FIELDS, ...extraFields]),
    size: () => store.count,
    atTime: (position) => timeline()[position]!,
    lowerBound: (time) => store.lowerBound(time),
    timestampOf: (index) => store.timestampOf(index),
    visible: (index, now) => store.isVisible(index, now),
    record: (index) => decorate(store.recordAt(index), store.isDeleted(index)),
    media: (index, record) => store.mediaAt(index, record),
    indexOfKey: (key) => {
      const index = store.indexOfKey(key);
      return index !== undefined && index < store.count ? index : undefined;
    },
    version: () => store.version,
  };
}

/** A resource that never changes: records are generated from the index, timestamps grow with it. */
function staticResource(
  name: string,
  keyField: string,
  fields: readonly string[],
  options: GeneratorOptions,
  count: () => number,
  make: (index: number) => ResoRecord,
  keyOf: (index: number) => string,
): Resource {
  const timestampOf = (index: number) => options.baseTime + index * options.stepMs;
  return {
    name,
    keyField,
    fields: new Set(fields),
    size: count,
    atTime: (position) => position,
    lowerBound: (time) =>
      Math.min(count(), Math.max(0, Math.ceil((time - options.baseTime) / options.stepMs))),
    timestampOf,
    visible: () => true,
    record: (index) => ({
      ...make(index),
      ModificationTimestamp: new Date(timestampOf(index)).toISOString(),
    }),
    indexOfKey: (key) => {
      for (let index = 0; index < count(); index++) if (keyOf(index) === key) return index;
      return undefined;
    },
    version: () => 0,
  };
}

export function memberResource(options: GeneratorOptions, listings: () => number): Resource {
  const count = () => agentCount(options, listings());
  const make = (agent: number): ResoRecord => {
    const a = agentFields(options, agent);
    const o = officeFields(options, officeOf(options, agent));
    return {
      MemberKey: a.ListAgentKey,
      MemberMlsId: a.ListAgentMlsId,
      MemberFullName: a.ListAgentFullName,
      MemberDirectPhone: a.ListAgentDirectPhone,
      MemberEmail: a.ListAgentEmail ?? null,
      OfficeKey: o.ListOfficeKey,
      OfficeName: o.ListOfficeName,
      OriginatingSystemName: options.originatingSystem,
    };
  };
  return staticResource('Member', 'MemberKey', MEMBER_FIELDS, options, count, make, (i) =>
    String(make(i).MemberKey),
  );
}

export function officeResource(options: GeneratorOptions, listings: () => number): Resource {
  const count = () => Math.max(1, Math.ceil(agentCount(options, listings()) / options.agentsPerOffice));
  const make = (office: number): ResoRecord => {
    const o = officeFields(options, office);
    return {
      OfficeKey: o.ListOfficeKey,
      OfficeMlsId: o.ListOfficeMlsId,
      OfficeName: o.ListOfficeName,
      OfficePhone: o.ListOfficePhone,
      OfficeEmail: o.ListOfficeEmail,
      OriginatingSystemName: options.originatingSystem,
    };
  };
  return staticResource('Office', 'OfficeKey', OFFICE_FIELDS, options, count, make, (i) =>
    String(make(i).OfficeKey),
  );
}
