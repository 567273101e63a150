// `npm run owner:add -- <email>`: the account with this email becomes an owner of the shop, who may
// then make others staff or owner at /admin/people. The account must exist (sign up first).
import { makeOwner } from "../app/features/auth/people.server";
import { commandLine, runDatabaseScript, UsageError } from "./database-script";

const USAGE = "usage: npm run owner:add -- <email>";

const email = commandLine(USAGE, {}, ({ positionals }) => {
  if (positionals.length !== 1 || !positionals[0]?.includes("@")) {
    throw new UsageError("Give the email of one account.");
  }
  return positionals[0].trim().toLowerCase();
});

if (email) {
  await runDatabaseScript(
    async (database) => {
      const result = await makeOwner(database.db, email);
      if (!result.ok) {
        throw new UsageError(
          result.reason === "no-account"
            ? `There is no account with the email ${email}. Sign up with it at /sign-up first, then run this again.`
            : "The shop must keep an owner.",
        );
      }
      return result.changed
        ? `${email} is now an owner: sign in and open /admin.`
        : `${email} is already an owner.`;
    },
    { stopTheShopTo: "make the owner" },
  );
}
