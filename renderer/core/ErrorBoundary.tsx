/**
 * One panel's failure stays in that panel: a view that throws while rendering (a damaged run file,
 * an unexpected value) shows what failed and a way to try again, and the rest of the app goes on.
 * `resetKey` clears the failure when what the panel shows changes (another run opened).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** The panel's name, for the message ("Run summary"). */
  name: string;
  children: ReactNode;
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  key: unknown;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Something else to show: the old failure no longer applies.
    return props.resetKey !== state.key ? { key: props.resetKey, error: null } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn(`tokenscope: the ${this.props.name} panel failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="card panel-failed" role="alert" data-testid="panel-failed">
        <h3>{this.props.name}: this panel failed</h3>
        <p className="mono">{error.message.slice(0, 500)}</p>
        <p className="muted">
          The rest of the app is unaffected. If it comes from a run file, the file may be damaged.
        </p>
        <button type="button" className="btn small" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    );
  }
}
