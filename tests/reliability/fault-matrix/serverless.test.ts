/** The fault matrix (matrix.ts) on a serverless host (VERCEL=1). */
import { describeFaultMatrix } from "./matrix";

describeFaultMatrix("serverless");
