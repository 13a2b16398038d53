// Preloaded (node --require) into a process and, through execArgv, into its worker threads:
// any attempt to reach the network throws and is reported on stderr.
const net = require('node:net');
const dns = require('node:dns');
const http = require('node:http');
const https = require('node:https');
const { threadId } = require('node:worker_threads');

function refuse(what) {
  const message = `network attempt blocked (thread ${threadId}): ${what}`;
  process.stderr.write(message + '\n');
  throw new Error(message);
}
const realConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // Node passes normalised arguments ([options, callback]) on its internal calls.
  const o = Array.isArray(args[0]) ? args[0][0] : args[0];
  // Local IPC (pipes, unix sockets) is not the network.
  if (o && typeof o === 'object' && o.path) return realConnect.apply(this, args);
  if (typeof o === 'string' && !/^\d+$/.test(o)) return realConnect.apply(this, args);
  refuse(`socket connect ${JSON.stringify(o)}`);
};
dns.lookup = (host) => refuse(`dns lookup ${host}`);
dns.promises.lookup = async (host) => refuse(`dns lookup ${host}`);
http.request = (o) => refuse(`http request ${typeof o === 'string' ? o : o?.host ?? o?.hostname ?? o}`);
http.get = http.request;
https.request = (o) => refuse(`https request ${typeof o === 'string' ? o : o?.host ?? o?.hostname ?? o}`);
https.get = https.request;
globalThis.fetch = async (url) => refuse(`fetch ${url}`);
process.stderr.write(`no-network guard active in thread ${threadId}\n`);
