// The API tests' password hashing: scrypt in the auth library's own "salt:key" form, with a cost
// some 250 times lower (N = 1,024, r = 1 instead of N = 16,384, r = 16). The tests register and sign
// in thousands of accounts; at the library's cost each hash kept a core busy for about 100 ms, most
// of the API suite's time. What is tested is unchanged: the same library calls the same two
// functions, queued the same way (createPasswordHashing). Production and the browser tests hash at
// the library's cost (src/server/auth/password-hashing.ts).
import { randomBytes, scrypt } from "node:crypto";
import { promisify } from "node:util";
import { createPasswordHashing, type Hashing } from "../auth/password-hashing.ts";

const derive = promisify(scrypt) as (password: string, salt: string, length: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;
const COST = { N: 1_024, r: 1, p: 1 };
const KEY_BYTES = 64;

async function key(password: string, salt: string): Promise<string> {
  return (await derive(password.normalize("NFKC"), salt, KEY_BYTES, COST)).toString("hex");
}

export function lightPasswordHashing(): Hashing {
  return createPasswordHashing(undefined, {
    async hash(password) {
      const salt = randomBytes(16).toString("hex");
      return `${salt}:${await key(password, salt)}`;
    },
    async verify({ hash, password }) {
      const [salt, stored] = hash.split(":");
      if (!salt || !stored) throw new Error("Invalid password hash");
      return (await key(password, salt)) === stored;
    },
  });
}
