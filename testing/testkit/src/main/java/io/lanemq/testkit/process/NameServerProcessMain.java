package io.lanemq.testkit.process;

import java.util.Properties;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/** Internal: main class of a name server child JVM. Argument: the settings properties file. */
public final class NameServerProcessMain {

    private NameServerProcessMain() {
    }

    public static void main(String[] args) {
        ChildRuntime.run("namesrv", args, NameServerProcessMain::start);
    }

    private static Runnable start(Properties settings) throws Exception {
        // Without this the name server keeps no topic routes (NOTES-rocketmq); NamesrvStartup does the same.
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        NamesrvConfig namesrvConfig = new NamesrvConfig();
        NettyServerConfig serverConfig = new NettyServerConfig();
        NettyClientConfig clientConfig = new NettyClientConfig();
        MixAll.properties2Object(settings, namesrvConfig);
        MixAll.properties2Object(settings, serverConfig);
        MixAll.properties2Object(settings, clientConfig);

        NamesrvController controller = new NamesrvController(namesrvConfig, serverConfig, clientConfig);
        if (!controller.initialize()) {
            controller.shutdown();
            throw new IllegalStateException("NamesrvController.initialize() returned false");
        }
        controller.start();
        return controller::shutdown;
    }
}
