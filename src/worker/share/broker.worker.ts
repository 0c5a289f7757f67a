/// <reference lib="webworker" />
import { aliveLock, type BrokerReply, type BrokerRequest } from '../../protocol/share';

/**
 * The broker: a SharedWorker that introduces tabs to the tab holding an engine and carries nothing
 * else (engines never run here: Chromium gives a SharedWorker no nested workers and no
 * cross-origin isolation, so no WASM threads). A holder is forgotten when its alive lock frees.
 */
declare const self: SharedWorkerGlobalScope;

const UNSERVED_MS = 3000;
const holders = new Map<string, { holder: string; port: MessagePort }>();
type Waiting = { port: MessagePort; channel: MessagePort; request: number; follower: string };
const waiting = new Map<string, Waiting[]>();
const watched = new Set<string>();

const reply = (port: MessagePort, message: BrokerReply, transfer: Transferable[] = []) =>
  port.postMessage(message, transfer);

function introduce(key: string, { port, channel, request, follower }: Waiting): boolean {
  const held = holders.get(key);
  if (!held) return false;
  reply(held.port, { type: 'follower', key, follower }, [channel]);
  reply(port, { type: 'connected', request, holder: held.holder });
  return true;
}

function watch(holder: string): void {
  if (watched.has(holder)) return;
  watched.add(holder);
  void navigator.locks.request(aliveLock(holder), () => {
    watched.delete(holder);
    for (const [key, held] of holders) if (held.holder === holder) holders.delete(key);
  });
}

self.onconnect = (event) => {
  const port = event.ports[0]!;
  reply(port, { type: 'hello', scope: self.location.pathname });
  port.onmessage = ({ data, ports }: MessageEvent<BrokerRequest>) => {
    if (data.type === 'serve') {
      holders.set(data.key, { holder: data.holder, port });
      watch(data.holder);
      for (const next of waiting.get(data.key)?.splice(0) ?? []) introduce(data.key, next);
    } else if (data.type === 'withdraw') {
      if (holders.get(data.key)?.holder === data.holder) holders.delete(data.key);
    } else if (data.type === 'connect') {
      const entry: Waiting = { port, channel: ports[0]!, request: data.request, follower: data.follower };
      if (introduce(data.key, entry)) return;
      waiting.set(data.key, [...(waiting.get(data.key) ?? []), entry]);
      setTimeout(() => {
        const list = waiting.get(data.key) ?? [];
        if (!list.includes(entry)) return;
        list.splice(list.indexOf(entry), 1);
        entry.channel.close();
        reply(port, { type: 'unserved', request: data.request });
      }, UNSERVED_MS);
    }
  };
};
