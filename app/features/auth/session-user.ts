/** The signed-in shopper as pages see it: safe to send to the browser. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  /** The shopper has followed the confirmation link sent to this email. */
  emailVerified: boolean;
  /** Profile photo URL (http or https), or null for initials. */
  image: string | null;
}
