/** What other modules may use of rate limits besides the service: the client's address and the policies. */
export { clientAddress } from './client-address.js';
export {
  DEVICE_CODES_PER_ADDRESS,
  OIDC_EXCHANGES_PER_ADDRESS,
  SIGN_IN_PER_ADDRESS,
  SIGN_IN_PER_EMAIL,
  TELEMETRY_PER_ADDRESS,
} from './policies.js';
