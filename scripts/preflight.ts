/**
 * What every CLI command does first: load `.env` files as Next.js does, refuse a configuration the CLI
 * cannot run with (a shared database without SEARCHMUX_SECRET_KEY, half an Upstash pair: one line naming
 * the variable, exit 1), and say on stderr which database it is about to use.
 */
import { enforceDeployment } from "@/lib/deploy-check";
import { announceDatabase } from "./load-env";

enforceDeployment("cli");
announceDatabase();
