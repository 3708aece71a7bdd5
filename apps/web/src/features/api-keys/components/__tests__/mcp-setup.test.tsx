import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { McpSetup } from '../mcp-setup';

afterEach(cleanup);

describe('McpSetup', () => {
  it("shows an MCP client's JSON entry with this server's /mcp address and the key header", () => {
    render(<McpSetup origin="https://docs.example.com" />);
    const config = JSON.parse(screen.getByTestId('mcp-config').textContent ?? '') as {
      mcpServers: { docflow: { url: string; headers: Record<string, string> } };
    };
    expect(config.mcpServers.docflow.url).toBe('https://docs.example.com/mcp');
    expect(config.mcpServers.docflow.headers).toEqual({ Authorization: 'Bearer YOUR_API_KEY' });
  });
});
