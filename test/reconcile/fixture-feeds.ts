import { resolve } from 'node:path';
import type { FeedInput } from './fixtures.ts';

const FEEDS = resolve(import.meta.dirname, '../../fixtures/feeds');
const path = (name: string) => resolve(FEEDS, name);

/** Required fields the XML formats do not carry, given per feed as the docs say. */
const NOT_IN_FEED = {
  YearBuilt: 1900,
  DaysOnMarket: 0,
  ParkingSpots: 0,
  Bedrooms: 0,
  Bathrooms: 0,
  LotArea: 0,
  BuildingArea: 0,
};

/**
 * Every fixture of fixtures/feeds that yields listings, with the feed config the ingestion tests
 * (test/ingest) read it with. Kept in step with those by hand: a fixture added there belongs here.
 */
export const FIXTURE_FEEDS: [name: string, feed: FeedInput][] = [
  [
    'csv/acme-listings.csv (explicit mapping)',
    {
      source: { format: 'csv', path: path('csv/acme-listings.csv'), csv: { skipRows: 2 } },
      mapping: {
        fields: {
          MLSNumber: 'MLS #',
          Status: 'Status',
          SaleType: { const: 'for_sale' },
          PropertyType: 'Type',
          SalePrice: 'List Price',
          Bedrooms: 'Beds',
          Bathrooms: { full: 'Baths Full', half: 'Baths Half' },
          BuildingArea: 'Sq Ft',
          LotArea: { from: 'Lot Acres', unit: 'acres' },
          YearBuilt: 'Year Built',
          DaysOnMarket: 'DOM',
          ParkingSpots: 'Garage',
          Address: 'Address',
          City: 'City',
          State: 'State',
          ZIP: 'Zip',
          Description: 'Remarks',
          Images: { from: 'Photos', split: '|' },
          Url: { template: 'https://acme.example/listing/{MLS #}' },
          CurrencySymbol: { const: 'USD' },
        },
        defaults: { YearBuilt: 1900, LotArea: 0 },
        extensions: { fields: { Agent: 'Agent' } },
      },
    },
  ],
  [
    'csv/euro-semicolon-1252.csv (Windows-1252, decimal comma)',
    {
      source: { format: 'csv', path: path('csv/euro-semicolon-1252.csv') },
      mapping: {
        areaUnit: 'Square Meters',
        decimalComma: true,
        maps: {
          Status: { Disponible: 'Active', Reservado: 'Active', Vendido: 'Sold', Retirado: 'remove' },
        },
        fields: {
          MLSNumber: 'Referencia',
          Status: 'Estado',
          PropertyType: 'Tipo',
          SalePrice: 'Precio',
          CurrencySymbol: 'Moneda',
          SaleType: { const: 'for_sale' },
          Bedrooms: 'Dormitorios',
          Bathrooms: 'Baños',
          BuildingArea: { from: 'Superficie', unitFrom: 'Unidad' },
          LotArea: { from: 'Parcela', unit: 'ha', default: 0 },
          YearBuilt: 'Año',
          DaysOnMarket: 'Días',
          ParkingSpots: 'Plazas',
          Address: 'Dirección',
          City: 'Población',
          Description: 'Descripción',
          Url: { template: 'https://inmo.example/{Referencia}' },
        },
      },
    },
  ],
  [
    'csv/tab-inferred.tsv (mapping inferred)',
    {
      source: { format: 'csv', path: path('csv/tab-inferred.tsv') },
      mapping: { defaults: { CurrencySymbol: '$' } },
    },
  ],
  [
    'csv/tab-inferred.tsv (preset mls-csv)',
    {
      source: { format: 'csv', path: path('csv/tab-inferred.tsv') },
      mapping: {
        preset: 'mls-csv',
        fields: { Url: { template: 'https://acme.example/listing/{MLS#}' } },
        defaults: { CurrencySymbol: '$' },
      },
    },
  ],
  [
    'xml/reaxml.xml (preset reaxml)',
    {
      source: { format: 'xml', path: path('xml/reaxml.xml') },
      mapping: { preset: 'reaxml', defaults: NOT_IN_FEED },
    },
  ],
  [
    'xml/kyero.xml (preset kyero)',
    {
      source: { format: 'xml', path: path('xml/kyero.xml') },
      mapping: { preset: 'kyero', defaults: NOT_IN_FEED },
    },
  ],
  [
    'xml/listhub.xml (preset listhub)',
    {
      source: { format: 'xml', path: path('xml/listhub.xml') },
      mapping: { preset: 'listhub', defaults: { DaysOnMarket: 0 } },
    },
  ],
  [
    'xml/zillow.xml (preset zillow)',
    {
      source: { format: 'xml', path: path('xml/zillow.xml') },
      mapping: { preset: 'zillow', defaults: { DaysOnMarket: 0, LotArea: 0 } },
    },
  ],
  [
    'xml/generic-namespaces.xml (explicit mapping)',
    {
      source: {
        format: 'xml',
        path: path('xml/generic-namespaces.xml'),
        xml: { recordPath: 'feed:export.feed:items.feed:item' },
      },
      mapping: {
        areaUnit: 'Square Meters',
        fields: {
          MLSNumber: '@id',
          Status: '@status',
          SaleType: { const: 'for_sale' },
          PropertyType: { const: 'Home' },
          SalePrice: 'price',
          CurrencySymbol: 'price.@currency',
          BuildingArea: { from: 'size', unitFrom: 'size.@unit' },
          Latitude: 'geo:point.geo:lat',
          Longitude: 'point.lng',
          Url: 'link',
          Images: 'photo',
          Description: 'title',
        },
        defaults: NOT_IN_FEED,
      },
    },
  ],
  [
    'reso/property.json (preset reso)',
    {
      source: { format: 'reso', path: path('reso/property.json') },
      mapping: { preset: 'reso' },
    },
  ],
];
