/**
 * A tax class's name, as a product's Tax class field and the setup's class
 * rates write it: "reduced", "zero-rated" (issue 35). Its own module so the
 * product form's bundle does not carry the setup's country lists.
 */
export const TAX_CLASS = /^[a-z][a-z0-9-]{0,39}$/;
