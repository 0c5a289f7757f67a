import type { BrokerReply, BrokerRequest } from '../../protocol/share';
import { aliveLock } from '../../protocol/share';
import { hold } from './locks';

const CONNECT_MS = 5000;

/**
 * One Vaani's part in sharing engines across tabs: its id, the alive lock it holds for its life
 * (others learn it is gone by taking it) and its port to the broker, the SharedWorker that
 * introduces followers to holders.
 */
export class ShareSession {
  readonly id = crypto.randomUUID();
  /** Lock names are scoped by the broker's path: another build of the library shares nothing with this one. */
  private readonly scope: Promise<string>;
  private readonly broker: MessagePort;
  private readonly alive: Promise<() => void>;
  private readonly requests = new Map<number, (reply: BrokerReply, port?: MessagePort) => void>();
  private readonly served = new Map<string, (port: MessagePort, follower: string) => void>();
  private nextRequest = 0;

  constructor(worker: SharedWorker) {
    this.alive = hold(aliveLock(this.id));
    this.broker = worker.port;
    let hello!: (scope: string) => void;
    this.scope = new Promise((resolve, reject) => {
      hello = resolve;
      setTimeout(() => reject(new Error('The broker did not answer.')), CONNECT_MS);
    });
    this.scope.catch(() => {});
    this.broker.onmessage = ({ data, ports }: MessageEvent<BrokerReply>) => {
      if (data.type === 'hello') hello(data.scope);
      else if (data.type === 'follower') this.served.get(data.key)?.(ports[0]!, data.follower);
      else this.requests.get(data.request)?.(data);
    };
    this.broker.start();
  }

  /** The Web Lock of an engine: whoever holds it holds the engine. Rejects when the broker never answered. */
  async lockName(key: string): Promise<string> {
    return `vaani:engine:${await this.scope}:${key}`;
  }

  /** Serves `key` from this tab: every follower's port (and its Vaani's id) is handed to `accept`. */
  async serve(key: string, accept: (port: MessagePort, follower: string) => void): Promise<void> {
    await this.alive;
    this.served.set(key, accept);
    this.post({ type: 'serve', key, holder: this.id });
  }

  withdraw(key: string): void {
    this.served.delete(key);
    this.post({ type: 'withdraw', key, holder: this.id });
  }

  /** A port to the tab holding `key` and that tab's id, or undefined when no holder answered in time. */
  async connect(key: string): Promise<{ port: MessagePort; holder: string } | undefined> {
    // The holder watches this lock to learn when this tab is gone: it must be held before meeting.
    await this.alive;
    const request = ++this.nextRequest;
    const channel = new MessageChannel();
    return new Promise((resolve) => {
      const done = (reply?: BrokerReply) => {
        clearTimeout(timer);
        this.requests.delete(request);
        if (reply?.type === 'connected') resolve({ port: channel.port1, holder: reply.holder });
        else {
          channel.port1.close();
          resolve(undefined);
        }
      };
      const timer = setTimeout(done, CONNECT_MS);
      this.requests.set(request, done);
      this.post({ type: 'connect', key, request, follower: this.id }, [channel.port2]);
    });
  }

  async dispose(): Promise<void> {
    for (const key of [...this.served.keys()]) this.withdraw(key);
    this.broker.close();
    (await this.alive)();
  }

  private post(message: BrokerRequest, transfer: Transferable[] = []): void {
    this.broker.postMessage(message, transfer);
  }
}
