package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.ClusterCredentials.AccessKeys;
import io.lanemq.api.spi.ClusterEndpoint;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.ClientConfig;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.netty.TlsSystemConfig;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a client proves who it is to a secured cluster: the endpoint's credentials as RocketMQ's request signer
 * ({@link AclClientRPCHook}, which signs every request with the secret key, HMAC-SHA1 over the request's fields, and
 * sends the access key and the signature, never the secret), and TLS when the endpoint asks for it.
 *
 * <p>The keys are resolved from the environment or the secret file each time a client is created, so a rotated
 * secret reaches the next client without a restart; RocketMQ's {@code SessionCredentials.toString()} prints the
 * secret, so neither it nor the hook is ever logged here.
 */
final class ClusterAccess {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterAccess.class);
    private static final long ACCESS_CHECK_TIMEOUT_MS = 3_000;
    private static final Set<String> WARNED_UNVERIFIED = ConcurrentHashMap.newKeySet();

    private ClusterAccess() {
    }

    /** The request signer for the endpoint's credentials, or null (RocketMQ's "no hook") when it has none. */
    static RPCHook rpcHook(ClusterEndpoint endpoint) throws InvalidConfigurationException {
        if (endpoint.credentials().isEmpty()) {
            return null;
        }
        AccessKeys keys = endpoint.credentials().get().resolve(endpoint.clusterName(), System::getenv);
        return new AclClientRPCHook(new SessionCredentials(keys.accessKey(), keys.secretKey()));
    }

    /**
     * Asks one broker of {@code topic} for the group's members, a request the brokers authenticate and authorize like a
     * pull: a push consumer's start sends only heartbeats, whose refusal RocketMQ's client merely logs, so without this a
     * consumer with refused keys would start and never receive anything. Only a refusal fails; a broker that does not
     * answer in time, or a topic not routed yet, is left to the consumer's own retries.
     *
     * @throws MQBrokerException with {@code NO_PERMISSION} when the broker refused the keys
     */
    static void checkConsumerAccepted(MQClientInstance client, String topic, String group) throws MQBrokerException {
        String broker = client.findBrokerAddrByTopic(topic);
        if (broker == null) {
            return;
        }
        try {
            client.getMQClientAPIImpl().getConsumerIdListByGroup(broker, group, ACCESS_CHECK_TIMEOUT_MS);
        } catch (MQBrokerException e) {
            if (e.getResponseCode() == ResponseCode.NO_PERMISSION) {
                throw e;
            }
        } catch (RemotingException e) {
            LOG.debug("cannot check the keys of group {} on broker {} now: {}", group, broker, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Turns TLS on for a client of a TLS endpoint. Whether the broker's certificate is verified is RocketMQ's
     * JVM-wide setting ({@code -Dtls.test.mode.enable=false -Dtls.client.authServer=true
     * -Dtls.client.trustCertPath=ca.pem}, or the same keys in {@code tls.config.file}); its default trusts any
     * certificate, which encrypts but does not authenticate the broker, so that case is logged once per cluster.
     */
    static void applyTls(ClientConfig client, ClusterEndpoint endpoint) {
        if (!endpoint.tls()) {
            return;
        }
        client.setUseTLS(true);
        if ((TlsSystemConfig.tlsTestModeEnable || !TlsSystemConfig.tlsClientAuthServer)
                && WARNED_UNVERIFIED.add(endpoint.clusterName())) {
            LOG.warn("TLS to cluster {} does not verify the brokers' certificates: RocketMQ's client trusts any "
                    + "certificate unless the JVM runs with -Dtls.test.mode.enable=false -Dtls.client.authServer=true "
                    + "-Dtls.client.trustCertPath=<CA file> (or those keys in tls.config.file)", endpoint.clusterName());
        }
    }
}
