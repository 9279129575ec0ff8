// nsim reference: one TcpCubic flow over s -(100 Mb/s, 1 ms)- r -(10 Mb/s, 19 ms, DropTail 100 p)- d
// in ns-3.37, 60 s. Prints "cwnd <time s> <bytes>" on every congestion-window change and
// "rx <time s> <bytes>" once per 100 ms (bytes received by the sink so far).
// Settings chosen to match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK
// per segment (DelAckCount 1), initial window 10, classic recovery (not PRR), HyStart off,
// receive/send buffers far above the BDP. Usage: cubic_dumbbell [--queue=100]
#include "../dumbbell.h"
#include <iostream>

using namespace ns3;

static void CwndChange(uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void TraceCwnd()
{
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
                                  MakeCallback(&CwndChange));
}

static void Rx(Ptr<PacketSink> sink)
{
    std::cout << "rx " << Simulator::Now().GetSeconds() << " " << sink->GetTotalRx() << "\n";
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
}

int main(int argc, char* argv[])
{
    uint32_t queue = 100;
    CommandLine cmd;
    cmd.AddValue("queue", "bottleneck DropTail limit, packets", queue);
    cmd.Parse(argc, argv);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpCubic"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(false));
    NsimTcpDefaults();
    NetDeviceContainer bottleneck;
    Ptr<PacketSink> sink = InstallDumbbell(queue, bottleneck);

    Simulator::Schedule(Seconds(0.00001), &TraceCwnd);
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
    Simulator::Stop(Seconds(60.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
