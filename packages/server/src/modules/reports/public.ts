/** What other modules may use of reports beyond the service: a workbook's reports, read and copied on the caller's handle. */
export {
  copyReportsOfWorkbook,
  moveReport,
  reportIdsOfWorkbook,
  reportInDeployment,
  reportOfAccount,
  reportsInFolder,
  reportsOfWorkbook,
} from './workbook-reports.js';
export { newPublicId } from './validate.js';
