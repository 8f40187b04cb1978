export {
  createPostgresIncidentStore,
  createRedisIncidentStore,
  type IncidentStore,
} from './incident-store.ts';
export { type Incident, type IncidentKind, incidentsOf, rejectedShareOf } from './incidents.ts';
export { type Alerter, type AlerterOptions, createAlerter } from './webhook.ts';
