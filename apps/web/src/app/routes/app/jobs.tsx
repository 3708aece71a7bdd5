import { JobsPage } from '@/features/jobs/components/jobs-page';

export default function JobsRoute() {
  return <JobsPage />;
}
