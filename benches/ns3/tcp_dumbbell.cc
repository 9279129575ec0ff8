// nsim benchmark: the TCP SACK dumbbell of reference/ns2/bench/tcp_dumbbell.tcl, in ns-3.37.
//
// usage: tcp_dumbbell <nflows> [simtime_s]     (build: benches/ns3/build.sh)
//
// N flows s(i) -> r1 -> r2 -> d(i): 100 Mb/s 1 ms access links, a 10 Mb/s 20 ms bottleneck,
// DropTail 100 packets on every link direction, 1000-byte segments, window 1000 segments,
// 100 s, flow i starting at 0.001 * (i % 100) s. Chosen as close to ns-2's Agent/TCP/Sack1 and
// Agent/TCPSink/Sack1 (ns-2.35 defaults) as ns-3 allows:
//   - TcpNewReno congestion control with SACK on, classic (RFC 6675-style) recovery rather
//     than ns-3's default PRR; no timestamps (ns-2 timestamps_ false);
//   - initial window 2 segments (ns-2 windowInit_ 2), minimum RTO 200 ms (ns-2 minrto_ 0.2);
//   - an ACK per segment (ns-2's TCPSink does not delay ACKs): DelAckCount 1;
//   - no queue discipline: ns-3 would install pfifo_fast (1000 packets) on every device, so it
//     is removed and the device's own DropTail queue holds 100 packets, as ns-2's DropTail;
//   - window 1000 segments (ns-2 window_): the receive buffer, 1000 x 1000 bytes, advertised
//     with window scaling; a send buffer larger than that.
// Differences that remain: ns-3 segments carry 42 bytes of headers (IP 20, TCP 20, PPP 2)
// against ns-2's 40; ns-3's SACK sender and RTO estimator are its own.
//
// Prints one line like the Tcl script's RESULT line: bottleneck departures, arrivals and drops
// on r1 -> r2, the bytes the sinks received, and the wall time of set-up (topology, stack,
// routes) and of the event loop.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>
#include <ns3/traffic-control-module.h>

using namespace ns3;

static uint64_t g_departures = 0, g_arrivals = 0, g_drops = 0;

static uint64_t g_device_tx = 0;

static void OnDeparture(Ptr<const Packet>) { ++g_departures; }
static void OnDeviceTx(Ptr<const Packet>) { ++g_device_tx; }
static void OnQueueDrop(Ptr<const Packet>) { ++g_drops; }
// Every packet r1 forwards towards r2 is a data segment (the ACKs r1 forwards go the other way
// and carry no payload).
static void OnForward(const Ipv4Header&, Ptr<const Packet> p, uint32_t) {
    if (p->GetSize() >= 1000) ++g_arrivals;
}

static double Seconds_(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <nflows> [simtime_s]\n", argv[0]);
        return 2;
    }
    const uint32_t n = std::atoi(argv[1]);
    const double simtime = argc > 2 ? std::atof(argv[2]) : 100.0;
    const auto wall0 = std::chrono::steady_clock::now();

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(0.2)));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    // The receive buffer is the advertised window (window scaling on): 1000 segments.
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1000 * 1000));

    NodeContainer routers, senders, receivers;
    routers.Create(2);
    senders.Create(n);
    receivers.Create(n);

    PointToPointHelper bottleneck, access;
    bottleneck.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    bottleneck.SetChannelAttribute("Delay", StringValue("20ms"));
    bottleneck.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100p"));
    access.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    access.SetChannelAttribute("Delay", StringValue("1ms"));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100p"));

    InternetStackHelper stack;
    stack.InstallAll();
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.252");
    TrafficControlHelper tc;

    NetDeviceContainer core = bottleneck.Install(routers.Get(0), routers.Get(1));
    addr.Assign(core);
    addr.NewNetwork();
    tc.Uninstall(core);
    std::vector<Ipv4Address> sinkAddr(n);
    for (uint32_t i = 0; i < n; ++i) {
        NetDeviceContainer left = access.Install(senders.Get(i), routers.Get(0));
        addr.Assign(left);
        addr.NewNetwork();
        tc.Uninstall(left);
        NetDeviceContainer right = access.Install(routers.Get(1), receivers.Get(i));
        sinkAddr[i] = addr.Assign(right).GetAddress(1);
        addr.NewNetwork();
        tc.Uninstall(right);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // The bottleneck r1 -> r2: its device queue (DropTail, 100 packets). With no queue disc,
    // ns-3 stops the device's transmit queue when it is full and the traffic-control layer
    // discards what comes next without a trace, so a full queue drops an arriving packet as
    // ns-2's DropTail does. Drops are counted as the data segments r1 forwards minus those
    // the device took (plus any its queue refused, which the stop makes rare).
    Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(core.Get(0));
    dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnDeparture));
    dev->TraceConnectWithoutContext("MacTx", MakeCallback(&OnDeviceTx));
    dev->GetQueue()->TraceConnectWithoutContext("Drop", MakeCallback(&OnQueueDrop));
    routers.Get(0)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("UnicastForward", MakeCallback(&OnForward));

    const uint16_t port = 5000;
    std::vector<Ptr<PacketSink>> sinks(n);
    for (uint32_t i = 0; i < n; ++i) {
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sink.Install(receivers.Get(i));
        sa.Start(Seconds(0.0));
        sinks[i] = DynamicCast<PacketSink>(sa.Get(0));
        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(sinkAddr[i], port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        src.SetAttribute("SendSize", UintegerValue(1000));
        ApplicationContainer ca = src.Install(senders.Get(i));
        ca.Start(Seconds(0.001 * (i % 100)));
    }

    Simulator::Stop(Seconds(simtime));
    const auto wall_run0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const auto wall1 = std::chrono::steady_clock::now();
    g_drops += g_arrivals - g_device_tx;
    uint64_t rx = 0;
    for (auto& s : sinks) rx += s->GetTotalRx();
    std::printf("RESULT scenario=tcp_dumbbell simulator=ns-3.37 n_flows=%u sim_seconds=%g bottleneck_departures=%llu "
                "bottleneck_arrivals=%llu bottleneck_drops=%llu sink_rx_bytes=%llu setup_wall_s=%.3f run_wall_s=%.3f\n",
                n, simtime, (unsigned long long)g_departures, (unsigned long long)g_arrivals,
                (unsigned long long)g_drops, (unsigned long long)rx, Seconds_(wall0, wall_run0),
                Seconds_(wall_run0, wall1));
    Simulator::Destroy();
    return 0;
}
