/**
 * Who may do what in the back office (docs/decisions/0029). Every account is
 * a shopper; staff manage products, stock and orders; owners also manage
 * people and settings. Nothing in the shop itself depends on the role.
 */
export const ROLES = ["shopper", "staff", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** The roles that enter the back office, and what a page or action needs. */
export type BackOfficeRole = Exclude<Role, "shopper">;

export const ROLE_LABELS: Record<Role, string> = { shopper: "Shopper", staff: "Staff", owner: "Owner" };

/** Whether `role` may do what needs `need`: an owner may do whatever staff may. */
export function mayAct(role: Role, need: BackOfficeRole): boolean {
  return need === "staff" ? role === "staff" || role === "owner" : role === "owner";
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
