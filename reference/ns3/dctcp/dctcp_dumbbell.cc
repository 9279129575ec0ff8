// nsim reference: N TcpDctcp flows s_i -(10x the bottleneck rate, 10 us)- r -(bottleneck)- d in
// ns-3.37, r's bottleneck port a step marker: ns-3's RED with MinTh = MaxTh = K, the
// instantaneous queue (QW 1), gentle off, ECN marking and no hard drop (as ns-3's DCTCP example
// sets RED up). Prints "q <time s> <packets waiting>" every `sample` (queue disc plus the
// device's one-packet queue), "a <time s> <flow> <alpha>" on every alpha update, and
// "rx <time s> <flow> <bytes>" every `sample` (bytes each sink has received so far), and at the
// end "m <time s> <marked> <arrived>" (the queue disc's CE marks and arrivals over the run),
// and "state <time s> <flow> <n>" on every TcpCongState_t change (3 recovery, 4 timeout). With
// --loss, each packet arriving at d is lost with that probability (dumbbell.h's AddRandomLoss;
// --run sets ns-3's RngRun for its draws).
// Settings chosen to match nsim's one-way TCP: 1000 B segments, no timestamps, an ACK per
// segment (DelAckCount 1), initial window 10, classic recovery (not PRR), 200 ms minimum RTO,
// buffers far above the BDP. Usage: dctcp_dumbbell --rate=1Gbps --delay=100us --k=20 ...
//        [--loss=0.01 --run=1]
#include "../dumbbell.h"
#include <iostream>

using namespace ns3;

static Ptr<QueueDisc> g_disc;
static Ptr<Queue<Packet>> g_device;
static std::vector<Ptr<PacketSink>> g_sinks;
static Time g_sample;

static void Sample()
{
    double t = Simulator::Now().GetSeconds();
    std::cout << "q " << t << " " << g_disc->GetNPackets() + g_device->GetNPackets() << "\n";
    for (size_t i = 0; i < g_sinks.size(); i++)
    {
        std::cout << "rx " << t << " " << i << " " << g_sinks[i]->GetTotalRx() << "\n";
    }
    Simulator::Schedule(g_sample, &Sample);
}

static void Alpha(uint32_t flow, uint32_t, uint32_t, double alpha)
{
    std::cout << "a " << Simulator::Now().GetSeconds() << " " << flow << " " << alpha << "\n";
}

static void State(uint32_t flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    std::cout << "state " << Simulator::Now().GetSeconds() << " " << flow << " " << int(now) << "\n";
}

// The socket's congestion control replaced by one whose alpha trace we hold (ns-3.37 keeps the
// algorithm private); done before the handshake completes, so nothing has run on it yet.
static void TraceAlpha(Ptr<BulkSendApplication> app, uint32_t flow)
{
    Ptr<TcpSocketBase> sock = DynamicCast<TcpSocketBase>(app->GetSocket());
    Ptr<TcpDctcp> cc = CreateObject<TcpDctcp>();
    cc->TraceConnectWithoutContext("CongestionEstimate", MakeBoundCallback(&Alpha, flow));
    sock->SetCongestionControlAlgorithm(cc);
    sock->TraceConnectWithoutContext("CongState", MakeBoundCallback(&State, flow));
}

int main(int argc, char* argv[])
{
    std::string rate = "1Gbps", access = "10Gbps", delay = "100us";
    uint32_t flows = 2, k = 20, limit = 200, run = 1;
    double duration = 2.0, sample = 0.0001, loss = 0.0;
    CommandLine cmd;
    cmd.AddValue("rate", "bottleneck rate", rate);
    cmd.AddValue("access", "access link rate", access);
    cmd.AddValue("delay", "bottleneck one-way delay", delay);
    cmd.AddValue("flows", "number of DCTCP flows", flows);
    cmd.AddValue("k", "marking threshold K, packets", k);
    cmd.AddValue("limit", "bottleneck buffer, packets", limit);
    cmd.AddValue("duration", "seconds", duration);
    cmd.AddValue("sample", "queue and goodput sampling interval, seconds", sample);
    cmd.AddValue("loss", "uniform packet loss probability on r -> d", loss);
    cmd.AddValue("run", "ns-3 RngRun (the loss draws)", run);
    cmd.Parse(argc, argv);
    RngSeedManager::SetRun(run);
    g_sample = Seconds(sample);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpDctcp"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", EnumValue(TcpSocketState::On));
    // RED as a step marker (ns-3's examples/tcp/dctcp-example.cc): instantaneous queue, mark at
    // and above K, never drop early.
    Config::SetDefault("ns3::RedQueueDisc::UseEcn", BooleanValue(true));
    Config::SetDefault("ns3::RedQueueDisc::UseHardDrop", BooleanValue(false));
    Config::SetDefault("ns3::RedQueueDisc::Gentle", BooleanValue(false));
    Config::SetDefault("ns3::RedQueueDisc::QW", DoubleValue(1.0));
    Config::SetDefault("ns3::RedQueueDisc::MinTh", DoubleValue(k));
    Config::SetDefault("ns3::RedQueueDisc::MaxTh", DoubleValue(k));
    Config::SetDefault("ns3::RedQueueDisc::MeanPktSize", UintegerValue(1040));
    Config::SetDefault("ns3::RedQueueDisc::MaxSize", QueueSizeValue(QueueSize(std::to_string(limit) + "p")));

    NodeContainer senders, ends;
    senders.Create(flows);
    ends.Create(2); // r, d
    PointToPointHelper edge, bottleneck;
    edge.SetDeviceAttribute("DataRate", StringValue(access));
    edge.SetChannelAttribute("Delay", StringValue("10us"));
    edge.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100000p"));
    bottleneck.SetDeviceAttribute("DataRate", StringValue(rate));
    bottleneck.SetChannelAttribute("Delay", StringValue(delay));
    // One packet in the device: the queue disc holds the rest, so RED sees the queue.
    bottleneck.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));

    InternetStackHelper stack;
    stack.Install(senders);
    stack.Install(ends);
    Ipv4AddressHelper ip;
    std::vector<NetDeviceContainer> accessDevs;
    for (uint32_t i = 0; i < flows; i++)
    {
        NetDeviceContainer a = edge.Install(senders.Get(i), ends.Get(0));
        ip.SetBase(("10.1." + std::to_string(i + 1) + ".0").c_str(), "255.255.255.0");
        ip.Assign(a);
        accessDevs.push_back(a);
    }
    NetDeviceContainer b = bottleneck.Install(ends.Get(0), ends.Get(1));
    ip.SetBase("10.2.1.0", "255.255.255.0");
    Ipv4InterfaceContainer bi = ip.Assign(b);
    if (loss > 0)
    {
        AddRandomLoss(b, loss);
    }
    TrafficControlHelper none;
    for (auto& a : accessDevs)
    {
        none.Uninstall(a);
    }
    none.Uninstall(b);
    TrafficControlHelper red;
    red.SetRootQueueDisc("ns3::RedQueueDisc", "LinkBandwidth", StringValue(rate), "LinkDelay", StringValue(delay));
    g_disc = red.Install(b.Get(0)).Get(0);
    g_device = DynamicCast<PointToPointNetDevice>(b.Get(0))->GetQueue();
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    for (uint32_t i = 0; i < flows; i++)
    {
        uint16_t port = 5000 + i;
        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(bi.GetAddress(1), port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer s = src.Install(senders.Get(i));
        s.Start(Seconds(0.0));
        Simulator::Schedule(NanoSeconds(1), &TraceAlpha, DynamicCast<BulkSendApplication>(s.Get(0)), i);
        PacketSinkHelper dst("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer d = dst.Install(ends.Get(1));
        d.Start(Seconds(0.0));
        g_sinks.push_back(DynamicCast<PacketSink>(d.Get(0)));
    }
    Simulator::Schedule(g_sample, &Sample);
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    const QueueDisc::Stats& st = g_disc->GetStats();
    std::cout << "m " << duration << " " << st.nTotalMarkedPackets << " " << st.nTotalReceivedPackets << "\n";
    Simulator::Destroy();
    return 0;
}
