package io.lanemq.testkit.process;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Properties;
import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Internal: main class of a broker child JVM. Argument: the settings properties file.
 *
 * <p>The broker loads its store before it waits for the name server, so a broker launched together with its
 * name server spends the name server's start-up time on its own start-up instead of idling. It registers at
 * {@code start()}; the periodic re-registration would otherwise make a late name server wait 10 s or more.
 */
public final class BrokerProcessMain {

    private static final long NAME_SERVER_POLL_MILLIS = 50;

    private BrokerProcessMain() {
    }

    public static void main(String[] args) {
        ChildRuntime.run("broker", args, BrokerProcessMain::start);
    }

    private static Runnable start(Properties settings) throws Exception {
        // Without this the name server keeps no topic routes (NOTES-rocketmq); BrokerStartup does the same.
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        BrokerConfig brokerConfig = new BrokerConfig();
        NettyServerConfig serverConfig = new NettyServerConfig();
        NettyClientConfig clientConfig = new NettyClientConfig();
        MessageStoreConfig storeConfig = new MessageStoreConfig();
        MixAll.properties2Object(settings, brokerConfig);
        MixAll.properties2Object(settings, serverConfig);
        MixAll.properties2Object(settings, clientConfig);
        MixAll.properties2Object(settings, storeConfig);

        AuthConfig authConfig = new AuthConfig();
        MixAll.properties2Object(settings, authConfig);
        authConfig.setConfigName(brokerConfig.getBrokerName());
        authConfig.setClusterName(brokerConfig.getBrokerClusterName());
        authConfig.setAuthConfigPath(storeConfig.getStorePathRootDir() + File.separator + "config");

        BrokerController controller =
            new BrokerController(brokerConfig, serverConfig, clientConfig, storeConfig, authConfig);
        if (!controller.initialize()) {
            controller.shutdown();
            throw new IllegalStateException("BrokerController.initialize() returned false");
        }
        long waitMillis = Long.parseLong(settings.getProperty(ChildProtocol.NAME_SERVER_WAIT_MILLIS, "60000"));
        awaitNameServer(brokerConfig.getNamesrvAddr(), waitMillis);
        controller.start();
        return controller::shutdown;
    }

    private static void awaitNameServer(String address, long waitMillis) throws InterruptedException {
        int colon = address.lastIndexOf(':');
        InetSocketAddress target =
            new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(target, 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("name server " + address + " did not accept connections within "
                        + waitMillis + " ms", e);
                }
                Thread.sleep(NAME_SERVER_POLL_MILLIS);
            }
        }
    }
}
