import { PageMessage } from './states';

export default function NotFoundPage() {
  return <PageMessage title="Nothing here" kind="not-found" />;
}
