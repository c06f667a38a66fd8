/** The authorization matrix's boards routes (testing/authorization-matrix.ts says what the matrix is). */
import { authorizationMatrix } from "./testing/authorization-matrix.ts";

authorizationMatrix("boards");
