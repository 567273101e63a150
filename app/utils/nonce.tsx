import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the current response. Only the server
 * knows it; in the browser it is empty (browsers hide nonce attributes anyway).
 */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
