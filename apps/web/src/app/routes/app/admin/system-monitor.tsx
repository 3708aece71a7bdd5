import { MonitorPage } from '@/features/system-monitor/components/monitor-page';

export default function SystemMonitorRoute() {
  return <MonitorPage />;
}
