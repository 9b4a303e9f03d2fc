import type { Agent } from '@contrateia/shared';
import type { ReactNode } from 'react';

/** One agent in a dashboard list: its initial, name, description and one action. */
export function AgentCard({ agent, action }: { agent: Agent; action: ReactNode }) {
  return (
    <li className="agent-card">
      <span className="agent-card__avatar" aria-hidden="true">
        {agent.displayName.charAt(0).toUpperCase()}
      </span>
      <div className="agent-card__body">
        <h3 className="agent-card__name">{agent.displayName}</h3>
        <p className="agent-card__description">{agent.description}</p>
      </div>
      <div className="agent-card__action">{action}</div>
    </li>
  );
}
