/** A shopper's shipping address, valid by the checkout's rules (a UK postal code for GB). */
export const SHOPPER_ADDRESS = {
  name: "Ada Shopper",
  line1: "1 High Street",
  city: "Leeds",
  postalCode: "LS1 1AA",
  country: "GB",
};
