#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""pyverbs (python3-pyverbs) over rdma_cm, for pyverbs_test: a server on
SERVER and a client to NAME, synchronous CMIDs (AddrInfo and
rdma_create_ep) then asynchronous ones (an event channel), then a multicast
join of GROUP resolved through AddrInfo.  One line per step on stdout; the
output must be the same with and without librdma_addrinfo preloaded.

Usage: pyverbs_cm.py SERVER NAME PORT GROUP
"""
import enum
import os
import select
import signal
import sys
import types

try:
    import pyverbs.cm_enums as ce
    import pyverbs.enums as e
except ImportError:
    # rdma-core 60+: pyverbs.librdmacm_enums and .libibverbs_enums, whose
    # constants are members of enum classes; flattened as before.
    import pyverbs.librdmacm_enums
    import pyverbs.libibverbs_enums

    def flat(mod):
        ns = types.SimpleNamespace()
        for name in dir(mod):
            val = getattr(mod, name)
            if isinstance(val, type) and issubclass(val, enum.Enum):
                for member in val:
                    setattr(ns, member.name, member)
            elif not name.startswith('_'):
                setattr(ns, name, val)
        return ns

    ce = flat(pyverbs.librdmacm_enums)
    e = flat(pyverbs.libibverbs_enums)
from pyverbs.cmid import AddrInfo, CMEvent, CMEventChannel, CMID, ConnParam
from pyverbs.qp import QPCap, QPInitAttr


def say(*words):
    print(*words, flush=True)


def qp_attr(qp_type=e.IBV_QPT_RC):
    return QPInitAttr(qp_type=qp_type, cap=QPCap(max_recv_wr=1))


def expect(channel, want):
    ev = CMEvent(channel)
    got = ev.event_type
    ev.ack_cm_event()
    if got != want:
        raise RuntimeError(f'event {got}, expected {want}')
    return got


def sync_server(server, port, listening):
    ai = AddrInfo(src=server, src_service=port, port_space=ce.RDMA_PS_TCP,
                  flags=ce.RAI_PASSIVE)
    listen_id = CMID(creator=ai, qp_init_attr=qp_attr())
    listen_id.listen()
    listening()
    child = listen_id.get_request()
    child.accept()
    child.close()
    listen_id.close()


def sync_client(name, port):
    ai = AddrInfo(dst=name, dst_service=port, port_space=ce.RDMA_PS_TCP)
    say('sync: addrinfo')
    cmid = CMID(creator=ai, qp_init_attr=qp_attr())
    say('sync: endpoint')
    cmid.connect()
    say('sync: connected')
    cmid.disconnect()
    cmid.close()


def async_server(server, port, listening):
    ch = CMEventChannel()
    listen_id = CMID(creator=ch, port_space=ce.RDMA_PS_TCP)
    listen_id.bind_addr(AddrInfo(src=server, src_service=port,
                                 port_space=ce.RDMA_PS_TCP,
                                 flags=ce.RAI_PASSIVE))
    listen_id.listen()
    listening()
    ev = CMEvent(ch)
    if ev.event_type != ce.RDMA_CM_EVENT_CONNECT_REQUEST:
        raise RuntimeError(f'event {ev.event_type}')
    child = CMID(creator=ev, listen_id=listen_id)
    ev.ack_cm_event()
    child.create_qp(qp_attr())
    child.accept(ConnParam())
    expect(ch, ce.RDMA_CM_EVENT_ESTABLISHED)
    expect(ch, ce.RDMA_CM_EVENT_DISCONNECTED)
    child.close()
    listen_id.close()
    ch.close()


def async_client(name, port):
    ch = CMEventChannel()
    cmid = CMID(creator=ch, port_space=ce.RDMA_PS_TCP)
    ai = AddrInfo(dst=name, dst_service=port, port_space=ce.RDMA_PS_TCP)
    say('async: addrinfo')
    cmid.resolve_addr(ai)
    expect(ch, ce.RDMA_CM_EVENT_ADDR_RESOLVED)
    say('async: address resolved')
    cmid.resolve_route()
    expect(ch, ce.RDMA_CM_EVENT_ROUTE_RESOLVED)
    say('async: route resolved')
    cmid.create_qp(qp_attr())
    cmid.connect(ConnParam())
    expect(ch, ce.RDMA_CM_EVENT_ESTABLISHED)
    say('async: established')
    cmid.disconnect()
    expect(ch, ce.RDMA_CM_EVENT_DISCONNECTED)
    say('async: disconnected')
    cmid.close()
    ch.close()


def multicast(server, group):
    """The group through AddrInfo, as destination and as source (the join)."""
    ch = CMEventChannel()
    cmid = CMID(creator=ch, port_space=ce.RDMA_PS_UDP)
    cmid.bind_addr(AddrInfo(src=server, port_space=ce.RDMA_PS_UDP,
                            flags=ce.RAI_PASSIVE))
    cmid.resolve_addr(AddrInfo(src=server, dst=group,
                               port_space=ce.RDMA_PS_UDP))
    expect(ch, ce.RDMA_CM_EVENT_ADDR_RESOLVED)
    say('multicast: group resolved')
    cmid.create_qp(qp_attr(e.IBV_QPT_UD))
    group_ai = AddrInfo(src=group, port_space=ce.RDMA_PS_UDP)
    say('multicast: group as source')
    cmid.join_multicast(addr=group_ai)
    expect(ch, ce.RDMA_CM_EVENT_MULTICAST_JOIN)
    say('multicast: joined')
    cmid.leave_multicast(group_ai)
    cmid.close()
    ch.close()


def with_server(server_fn, client_fn, *args):
    """server_fn in a child process, client_fn here once the server
    listens (it says so on a pipe; 30 s at most); both must succeed."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            server_fn(args[0], args[2], lambda: os.write(wfd, b'l'))
            os._exit(0)
        except Exception as err:  # pylint: disable=broad-except
            print('server:', err, file=sys.stderr, flush=True)
            os._exit(1)
    os.close(wfd)
    ready, _, _ = select.select([rfd], [], [], 30)
    listening = bool(ready) and os.read(rfd, 1) == b'l'
    os.close(rfd)
    if not listening:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise RuntimeError('the server did not listen within 30 s')
    try:
        client_fn(args[1], args[2])
    finally:
        _, status = os.waitpid(pid, 0)
    if status:
        raise RuntimeError(f'server exit status {status}')


def main():
    server, name, port, group = sys.argv[1:5]
    for step in (lambda: with_server(sync_server, sync_client, server, name,
                                     port),
                 lambda: with_server(async_server, async_client, server,
                                     name, str(int(port) + 1)),
                 lambda: multicast(server, group)):
        try:
            step()
        except Exception as err:  # pylint: disable=broad-except
            say('failed:', type(err).__name__, err)
    say('done')


if __name__ == '__main__':
    main()
