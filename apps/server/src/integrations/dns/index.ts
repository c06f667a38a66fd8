/** DNS (custom domains' TXT and CNAME checks): the port modules/teams uses. */
export { createDnsLookup, type DnsLookup, DnsLookupError } from "./lookup.ts";
