import { useEffect, useState } from 'preact/hooks';
import { openSession, type SessionState } from './session';

/**
 * The session of a page, opened once when the page mounts. Every page (dashboard, chat, creator
 * app) starts with this and renders `SessionGate` until it is ready.
 */
export function useSession(param: 'session' | 'sessionId'): SessionState {
  const [state, setState] = useState<SessionState>({ status: 'opening' });
  useEffect(() => {
    let live = true;
    void openSession(param).then((next) => live && setState(next));
    return () => {
      live = false;
    };
  }, [param]);
  return state;
}
