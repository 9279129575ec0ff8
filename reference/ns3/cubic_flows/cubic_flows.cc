// nsim reference: N TcpCubic flows (or another `cc`, e.g. ns3::TcpNewReno) over s -(100 Mb/s,
// 1 ms)- r -(10 Mb/s, 19 ms, DropTail `queue` p)- d in ns-3.37 (rates and delays may be given),
// flow i starting at i * `spacing`, with optional uniform random loss on r -> d (dumbbell.h's
// AddRandomLoss). Prints, one per line:
//   "cwnd <time s> <flow> <bytes>"  on every congestion-window change,
//   "rx <time s> <flow> <bytes>"   every 100 ms (bytes each sink has received so far),
//   "q <time s> <packets>"          every 1 ms (packets waiting in the bottleneck's device queue),
//   "state <time s> <flow> <n>"     on every TcpCongState_t change (3 recovery, 4 timeout).
// Settings as cubic/cubic_dumbbell.cc: dumbbell.h's TCP defaults, classic recovery (or PRR:
// TcpPrrRecovery, SSRB, with --recovery=prr), HyStart off.
// Usage: cubic_flows [--flows=4] [--spacing=1] [--loss=0.01] [--queue=100] [--duration=60] [--run=1]
//        [--rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us]
//        [--cc=ns3::TcpNewReno] [--recovery=prr]
#include "../dumbbell.h"
#include <iostream>

using namespace ns3;

static void State(uint32_t flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    std::cout << "state " << Simulator::Now().GetSeconds() << " " << flow << " " << int(now) << "\n";
}

static void Cwnd(uint32_t flow, uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << flow << " " << now << "\n";
}

// Flow i's socket is node 0's i-th: the flows start one after the other.
static void Connect(uint32_t flow)
{
    std::string sock = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/" + std::to_string(flow) + "/";
    Config::ConnectWithoutContext(sock + "CongState", MakeBoundCallback(&State, flow));
    Config::ConnectWithoutContext(sock + "CongestionWindow", MakeBoundCallback(&Cwnd, flow));
}

static void Sample(std::vector<Ptr<PacketSink>> sinks, Ptr<QueueBase> q, uint32_t tick)
{
    double t = Simulator::Now().GetSeconds();
    std::cout << "q " << t << " " << q->GetNPackets() << "\n";
    if (tick % 100 == 0)
    {
        for (size_t i = 0; i < sinks.size(); i++)
        {
            std::cout << "rx " << t << " " << i << " " << sinks[i]->GetTotalRx() << "\n";
        }
    }
    Simulator::Schedule(MilliSeconds(1), &Sample, sinks, q, tick + 1);
}

int main(int argc, char* argv[])
{
    uint32_t flows = 4, queue = 100, run = 1;
    double spacing = 1.0, loss = 0.0, duration = 60.0;
    std::string rate = "10Mbps", delay = "19ms", access = "100Mbps", accessDelay = "1ms";
    std::string cc = "ns3::TcpCubic", recovery = "classic";
    CommandLine cmd;
    cmd.AddValue("flows", "number of CUBIC flows", flows);
    cmd.AddValue("spacing", "start of flow i is i * spacing, seconds", spacing);
    cmd.AddValue("loss", "uniform packet loss probability on r -> d", loss);
    cmd.AddValue("queue", "bottleneck DropTail limit, packets", queue);
    cmd.AddValue("duration", "seconds", duration);
    cmd.AddValue("run", "ns-3 RngRun (the loss draws)", run);
    cmd.AddValue("rate", "bottleneck rate", rate);
    cmd.AddValue("delay", "bottleneck one-way delay", delay);
    cmd.AddValue("access", "access link rate", access);
    cmd.AddValue("access-delay", "access link one-way delay", accessDelay);
    cmd.AddValue("cc", "congestion control (an ns-3 TcpCongestionOps type)", cc);
    cmd.AddValue("recovery", "classic (TcpClassicRecovery) or prr (TcpPrrRecovery, SSRB)", recovery);
    cmd.Parse(argc, argv);
    if (recovery != "classic" && recovery != "prr")
    {
        std::cerr << "--recovery: " << recovery << " is neither classic nor prr\n";
        return 1;
    }
    RngSeedManager::SetRun(run);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(cc));
    std::string rec = recovery == "prr" ? "ns3::TcpPrrRecovery" : "ns3::TcpClassicRecovery";
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName(rec)));
    Config::SetDefault("ns3::TcpPrrRecovery::ReductionBound", StringValue("SSRB"));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(false));
    NsimTcpDefaults();
    NetDeviceContainer b;
    std::vector<Ptr<PacketSink>> sinks = InstallDumbbellFlows(queue, b, flows, Seconds(spacing), access, delay, rate, accessDelay);
    if (loss > 0)
    {
        AddRandomLoss(b, loss);
    }
    for (uint32_t i = 0; i < flows; i++)
    {
        Simulator::Schedule(Seconds(spacing * i + 0.00001), &Connect, i);
    }
    Ptr<QueueBase> q = DynamicCast<PointToPointNetDevice>(b.Get(0))->GetQueue();
    Simulator::Schedule(MilliSeconds(1), &Sample, sinks, q, 1u);
    Simulator::Stop(Seconds(duration) + MicroSeconds(500));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
