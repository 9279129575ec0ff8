// nsim reference: one TcpBbr flow over s -(100 Mb/s, 1 ms)- r -(10 Mb/s, 19 ms, DropTail 100 p)- d
// in ns-3.37, 60 s. Prints, one per line:
//   "cwnd <time s> <bytes>"   on every congestion-window change,
//   "pace <time s> <bit/s>"   on every pacing-rate change,
//   "state <time s> <n>"      on every TcpCongState_t change (4 = CA_LOSS: a timeout),
//   "rx <time s> <bytes>"     every 100 ms (bytes received by the sink so far),
//   "q <time s> <packets> <bytes in flight>" every 1 ms (bottleneck queue and sender inflight).
// Settings chosen to match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK
// per segment (DelAckCount 1), initial window 10, classic recovery, pacing on (BBR needs it),
// receive/send buffers far above the BDP. Usage: bbr_dumbbell [--queue=100] [--run=1]
#include "../dumbbell.h"
#include <iostream>

using namespace ns3;

static uint32_t g_inflight = 0;

static void CwndChange(uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void PacingChange(DataRate, DataRate now)
{
    std::cout << "pace " << Simulator::Now().GetSeconds() << " " << now.GetBitRate() << "\n";
}

static void StateChange(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    std::cout << "state " << Simulator::Now().GetSeconds() << " " << int(now) << "\n";
}

static void InflightChange(uint32_t, uint32_t now)
{
    g_inflight = now;
}

static void Connect()
{
    std::string sock = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(sock + "CongestionWindow", MakeCallback(&CwndChange));
    Config::ConnectWithoutContext(sock + "PacingRate", MakeCallback(&PacingChange));
    Config::ConnectWithoutContext(sock + "CongState", MakeCallback(&StateChange));
    Config::ConnectWithoutContext(sock + "BytesInFlight", MakeCallback(&InflightChange));
}

static void Rx(Ptr<PacketSink> sink)
{
    std::cout << "rx " << Simulator::Now().GetSeconds() << " " << sink->GetTotalRx() << "\n";
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
}

static void SampleQueue(Ptr<QueueBase> q)
{
    std::cout << "q " << Simulator::Now().GetSeconds() << " " << q->GetNPackets() << " " << g_inflight << "\n";
    Simulator::Schedule(MilliSeconds(1), &SampleQueue, q);
}

int main(int argc, char* argv[])
{
    uint32_t queue = 100;
    uint32_t run = 1;
    CommandLine cmd;
    cmd.AddValue("queue", "bottleneck DropTail limit, packets", queue);
    cmd.AddValue("run", "ns-3 RngRun (BBR's random PROBE_BW start phase)", run);
    cmd.Parse(argc, argv);
    RngSeedManager::SetRun(run);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpBbr"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    NsimTcpDefaults();

    NetDeviceContainer b;
    Ptr<PacketSink> sink = InstallDumbbell(queue, b);

    Ptr<QueueBase> q = DynamicCast<PointToPointNetDevice>(b.Get(0))->GetQueue();
    Simulator::Schedule(Seconds(0.00001), &Connect);
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
    Simulator::Schedule(MilliSeconds(1), &SampleQueue, q);
    Simulator::Stop(Seconds(60.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
