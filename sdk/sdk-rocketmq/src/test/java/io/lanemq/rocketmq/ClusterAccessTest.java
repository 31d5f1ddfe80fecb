package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.spi.ClusterCredentials;
import io.lanemq.api.spi.ClusterEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credentials become a request signer, TLS a client setting, and a broker's refusal an error naming the cluster. */
class ClusterAccessTest {
    private static final ClusterEndpoint OPEN = new ClusterEndpoint("cluster-a", "idc-a", "127.0.0.1:9876", Map.of());
    private static final String SECRET = "the-secret-key-value";

    @TempDir
    Path dir;

    @Test
    void anOpenEndpointHasNoSignerAndNoTls() throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("p", ClusterAccess.rpcHook(OPEN));
        ClusterAccess.applyTls(producer, OPEN);

        assertThat(ClusterAccess.rpcHook(OPEN)).isNull();
        assertThat(producer.isUseTLS()).isFalse();
    }

    @Test
    void credentialsSignRequestsWithTheAccessKeyAndASignatureButNeverSendTheSecret() throws Exception {
        Path keys = Files.writeString(dir.resolve("keys.properties"), "accessKey=app-a\nsecretKey=" + SECRET + "\n");
        ClusterEndpoint secured = OPEN.secured(Optional.of(new ClusterCredentials.SecretFile(keys)), true);

        AclClientRPCHook hook = (AclClientRPCHook) ClusterAccess.rpcHook(secured);
        RemotingCommand request = RemotingCommand.createRequestCommand(10, null);
        hook.doBeforeRequest("127.0.0.1:10911", request);

        assertThat(request.getExtFields()).containsEntry(SessionCredentials.ACCESS_KEY, "app-a")
                .containsKey(SessionCredentials.SIGNATURE).doesNotContainValue(SECRET);
        DefaultMQProducer producer = new DefaultMQProducer("p");
        ClusterAccess.applyTls(producer, secured);
        assertThat(producer.isUseTLS()).isTrue();
    }

    @Test
    void credentialsThatCannotBeResolvedFailNamingTheCluster() {
        ClusterEndpoint secured = OPEN.secured(Optional.of(
                new ClusterCredentials.Environment("LANEMQ_TEST_UNSET_ACCESS_KEY", "LANEMQ_TEST_UNSET_SECRET_KEY")), false);

        assertThatThrownBy(() -> ClusterAccess.rpcHook(secured))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("cluster 'cluster-a'").hasMessageContaining("LANEMQ_TEST_UNSET_ACCESS_KEY");
    }

    @Test
    void aNoPermissionAnswerNamesTheClusterAndTheRefusal() {
        MQBrokerException refused = new MQBrokerException(ResponseCode.NO_PERMISSION,
                "User:app-a is not found", "127.0.0.1:10911");

        MessagingException send = RocketMqErrors.sendFailed(new MQClientException("send failed", refused), "cluster-a", "orders");
        MessagingException call = RocketMqErrors.callFailed(refused, "seek", "cluster-a");

        assertThat(send).isInstanceOf(SendFailedException.class).hasMessageStartingWith("send to topic orders failed: cluster "
                + "'cluster-a' refused the request: authentication or authorization failed (NO_PERMISSION: User:app-a is "
                + "not found); check the credentials configured for this cluster and their rights on its brokers");
        assertThat(call.getMessage()).startsWith("seek: cluster 'cluster-a' refused the request");
    }
}
