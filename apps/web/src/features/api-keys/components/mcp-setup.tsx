import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** An MCP client's entry for this server: its /mcp address and the key as a Bearer header. */
export const mcpClientConfig = (origin: string) =>
  JSON.stringify(
    {
      mcpServers: {
        docflow: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer YOUR_API_KEY' } },
      },
    },
    null,
    2,
  );

/** How to add DocFlow to an AI agent (Claude, Cursor, VS Code…) as an MCP server, with one of these keys. */
export function McpSetup({ origin = window.location.origin }: { origin?: string }) {
  const { t } = useTranslation();
  return (
    <Card aria-labelledby="mcp-setup-title" role="region">
      <CardHeader>
        <CardTitle id="mcp-setup-title">{t('mcpSetup.title')}</CardTitle>
        <CardDescription>
          {t('mcpSetup.before')} <code className="font-mono text-xs">/mcp</code>
          {t('mcpSetup.after')}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <pre
          data-testid="mcp-config"
          className="overflow-x-auto rounded-xl bg-slate-950 p-4 font-mono text-xs leading-relaxed text-slate-100"
        >
          <code>{mcpClientConfig(origin)}</code>
        </pre>
      </CardContent>
    </Card>
  );
}
