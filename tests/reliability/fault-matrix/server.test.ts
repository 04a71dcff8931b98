/** The fault matrix (matrix.ts) on a long-running server. */
import { describeFaultMatrix } from "./matrix";

describeFaultMatrix("server");
