// nsim reference: slow start of one TcpCubic flow with HyStart (ns-3.37's, Ha & Rhee's, as Linux
// tcp_cubic.c) over s -(1 Gb/s, 1 ms)- r -(10 Mb/s, 49 ms, DropTail 500 p)- d, 10 s. Prints
// "cwnd <time s> <bytes>" and "ssthresh <time s> <bytes>" on every change and "rx <time s>
// <bytes>" once per 100 ms (bytes received so far).
// Settings chosen to match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK
// per segment (DelAckCount 1), initial window 10, classic recovery (not PRR), buffers far above
// the BDP. Usage: cubic_hystart [--detect=3] [--delayMax=1000]  (detect 1 train, 2 delay, 3 both;
// delayMax in ms: ns-3's default 1000, Linux's 16)
#include "../dumbbell.h"
#include <iostream>

using namespace ns3;

static void CwndChange(uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void SsthreshChange(uint32_t, uint32_t now)
{
    std::cout << "ssthresh " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void TraceCwnd()
{
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
                                  MakeCallback(&CwndChange));
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/SlowStartThreshold",
                                  MakeCallback(&SsthreshChange));
}

static void Rx(Ptr<PacketSink> sink)
{
    std::cout << "rx " << Simulator::Now().GetSeconds() << " " << sink->GetTotalRx() << "\n";
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
}

int main(int argc, char* argv[])
{
    uint32_t queue = 500, detect = 3, delayMax = 1000;
    CommandLine cmd;
    cmd.AddValue("queue", "bottleneck DropTail limit, packets", queue);
    cmd.AddValue("detect", "HyStart detection: 1 ACK train, 2 delay, 3 both", detect);
    cmd.AddValue("delayMax", "HyStart's upper clamp of the delay threshold, ms", delayMax);
    cmd.Parse(argc, argv);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpCubic"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(true));
    Config::SetDefault("ns3::TcpCubic::HyStartDetect", IntegerValue(detect));
    Config::SetDefault("ns3::TcpCubic::HyStartDelayMax", TimeValue(MilliSeconds(delayMax)));
    NsimTcpDefaults();

    NetDeviceContainer b;
    Ptr<PacketSink> sink = InstallDumbbell(queue, b, "1Gbps", "49ms");

    Simulator::Schedule(Seconds(0.00001), &TraceCwnd);
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
    Simulator::Stop(Seconds(10.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
