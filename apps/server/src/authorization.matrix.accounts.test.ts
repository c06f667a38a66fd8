/** The authorization matrix's accounts routes (testing/authorization-matrix.ts says what the matrix is). */
import { authorizationMatrix } from "./testing/authorization-matrix.ts";

authorizationMatrix("accounts");
