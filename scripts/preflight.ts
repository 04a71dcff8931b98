/**
 * What every CLI command does first: load `.env` files as Next.js does, refuse a configuration the CLI
 * cannot run with (a shared database without SEARCHMUX_SECRET_KEY, half an Upstash pair, a SEARCHMUX_PRICES
 * entry that does not parse: one line naming the variable, exit 1), and say on stderr which database it is
 * about to use.
 */
import { enforceDeployment } from "@/lib/deploy-check";
import { priceOverridesProblem } from "@/lib/pipeline/providers/prices";
import { announceDatabase } from "./load-env";

enforceDeployment("cli", [priceOverridesProblem]);
announceDatabase();
