// @vitest-environment happy-dom
import { isValidElement, type ReactElement } from 'react';
import { createRoutesFromChildren, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CUSTOM_AGENT_PAGE_PREFIX, WEB_PAGES } from '@contrateia/shared';
import { AppRoutes } from '@/app/router';

/** Every path the router serves a page at (the catch-all and the root redirect aside). */
function pagesOf(routes: RouteObject[], prefix = ''): string[] {
  return routes.flatMap((route) => {
    const path = route.path && route.path !== '*' ? `${prefix}/${route.path}` : prefix;
    const own = route.path && route.path !== '*' ? [path] : [];
    return [...own, ...pagesOf(route.children ?? [], path)];
  });
}

describe('the web router', () => {
  it('serves exactly the pages agents may link to: WEB_PAGES, and the agents an admin created', () => {
    const tree = AppRoutes() as ReactElement<{ children: ReactElement }>;
    expect(isValidElement(tree)).toBe(true);
    const pages = pagesOf(createRoutesFromChildren(tree.props.children));
    expect(pages.length).toBeGreaterThan(5);
    // `/agent/{name}` links are checked against the agents that exist (agentPagePath). An own
    // agent's form, new or by its id, is reached from /my-agents: links lead there.
    const ownAgentForms = ['/my-agents/new', '/my-agents/:id'];
    expect([...pages].sort()).toEqual(
      [...WEB_PAGES, `${CUSTOM_AGENT_PAGE_PREFIX}:name`, ...ownAgentForms].sort(),
    );
  });
});
