import type { MappedEnumField } from './mapping-schema.ts';
import { normalizeToken } from './normalize-token.ts';

/** The Status value meaning "no longer listed: remove it from the chatbot". */
export const REMOVE = 'remove';

/** ExtensionColumn Key holding the feed's own word for an under-contract status. */
export const STATUS_NOTE = 'Source status';

/**
 * Statuses meaning "a buyer signed, the sale has not closed": RESO `Pending` and `ActiveUnderContract`,
 * `Contingent`, REAXML's under offer, UK `Sale Agreed` / `SSTC` / `Let Agreed`, `Reserved`. By default they stay Active: the
 * listing is still advertised (and may fall through) until it closes, and a buyer asking the chatbot
 * about it should hear "under contract", not "no such listing". `underContract: remove` flips it.
 */
const UNDER_CONTRACT = new Set([
  'pending',
  'activeundercontract',
  'undercontract',
  'contingent',
  'activecontingent',
  'underoffer',
  'saleagreed',
  'sstc',
  'sstcm',
  'reserved',
  'letagreed',
]);
export function isUnderContract(status: string): boolean {
  return UNDER_CONTRACT.has(normalizeToken(status));
}

/**
 * Default enum maps, before the preset's and the feed's own. Keys are compared normalized, so
 * `Active Under Contract` finds `ActiveUnderContract`. The platform knows only Active, PreOnMarket
 * and Sold, so a listing under contract is still Active (it is still on the market) and every
 * status meaning "off the market without a sale" removes the listing.
 */
export const DEFAULT_MAPS: Readonly<Record<MappedEnumField, Readonly<Record<string, string>>>> = {
  Status: {
    Active: 'Active',
    New: 'Active',
    NewListing: 'Active',
    Current: 'Active',
    ForSale: 'Active',
    ForRent: 'Active',
    ForLease: 'Active',
    ActiveUnderContract: 'Active',
    UnderContract: 'Active',
    Contingent: 'Active',
    Pending: 'Active',
    ActiveContingent: 'Active',
    UnderOffer: 'Active',
    SaleAgreed: 'Active',
    SSTC: 'Active',
    SSTCM: 'Active',
    Reserved: 'Active',
    LetAgreed: 'Active',
    BackOnMarket: 'Active',
    PriceChange: 'Active',
    ComingSoon: 'PreOnMarket',
    PreOnMarket: 'PreOnMarket',
    Closed: 'Sold',
    Sold: 'Sold',
    Leased: 'Sold',
    Rented: 'Sold',
    Withdrawn: REMOVE,
    Canceled: REMOVE,
    Cancelled: REMOVE,
    Expired: REMOVE,
    Delete: REMOVE,
    Deleted: REMOVE,
    Hold: REMOVE,
    Incomplete: REMOVE,
    OffMarket: REMOVE,
    Inactive: REMOVE,
    Removed: REMOVE,
    Remove: REMOVE,
    TempOffMarket: REMOVE,
    TemporarilyOffMarket: REMOVE,
  },
  SaleType: {
    for_sale: 'for_sale',
    ForSale: 'for_sale',
    Sale: 'for_sale',
    Sell: 'for_sale',
    Purchase: 'for_sale',
    Buy: 'for_sale',
    for_rent: 'for_rent',
    ForRent: 'for_rent',
    Rent: 'for_rent',
    Rental: 'for_rent',
    Lease: 'for_rent',
    ForLease: 'for_rent',
  },
  PropertyType: {},
  Tours: { OpenHouse: 'OpenHouse', Open: 'OpenHouse', '3D': '3D', VirtualTour: '3D', Virtual: '3D' },
  SpaceType: { EntirePlace: 'Entire place', Entire: 'Entire place', Room: 'Room', PrivateRoom: 'Room' },
};
