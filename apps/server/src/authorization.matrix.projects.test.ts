/** The authorization matrix's projects routes (testing/authorization-matrix.ts says what the matrix is). */
import { authorizationMatrix } from "./testing/authorization-matrix.ts";

authorizationMatrix("projects");
