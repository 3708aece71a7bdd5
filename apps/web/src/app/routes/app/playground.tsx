import { PlaygroundPage } from '@/features/playground/components/playground-page';

export default function PlaygroundRoute() {
  return <PlaygroundPage />;
}
