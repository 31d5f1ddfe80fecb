package io.lanemq.testkit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Access control on the testkit's brokers: RocketMQ 5.3's ACL 2.0 (ACL 1.0's {@code aclEnable} and
 * {@code plain_acl.yml} are gone from 5.3.3). Users and their rights live in each broker's own store
 * ({@code Local*MetadataProvider}: RocksDB under the broker's {@code config} directory), so they survive a restart of
 * the broker and are created once per broker when the stack starts.
 */
final class BrokerAcl {
    private static final String AUTH = "org.apache.rocketmq.auth.";
    private static final List<String> APPLICATION_ACTIONS = List.of("Pub", "Sub");

    private BrokerAcl() {
    }

    /** The broker settings ({@code AuthConfig}'s) that turn authentication and authorization on, with {@code admin} as super user. */
    static Map<String, String> brokerSettings(AclUser admin) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("authenticationEnabled", "true");
        settings.put("authenticationProvider", AUTH + "authentication.provider.DefaultAuthenticationProvider");
        settings.put("authenticationMetadataProvider", AUTH + "authentication.provider.LocalAuthenticationMetadataProvider");
        settings.put("authorizationEnabled", "true");
        settings.put("authorizationProvider", AUTH + "authorization.provider.DefaultAuthorizationProvider");
        settings.put("authorizationMetadataProvider", AUTH + "authorization.provider.LocalAuthorizationMetadataProvider");
        // Created as a super user at the broker's first start; its inner clients sign their calls with the same keys.
        settings.put("initAuthenticationUser",
            "{\"username\":\"" + admin.name() + "\",\"password\":\"" + admin.secret() + "\"}");
        settings.put("innerClientAuthenticationCredentials",
            "{\"accessKey\":\"" + admin.name() + "\",\"secretKey\":\"" + admin.secret() + "\"}");
        return settings;
    }

    /** The request signer of {@code user}, for a RocketMQ client. */
    static RPCHook signer(AclUser user) {
        return new AclClientRPCHook(new SessionCredentials(user.name(), user.secret()));
    }

    /** Creates {@code user} on the broker at {@code brokerAddress}, allowed Pub and Sub on its resources. */
    static void create(DefaultMQAdminExt admin, String brokerAddress, AclUser user) throws Exception {
        admin.createUser(brokerAddress, user.name(), user.secret(), "Normal");
        admin.createAcl(brokerAddress, "User:" + user.name(), user.resources(), APPLICATION_ACTIONS, List.of(), "Allow");
    }
}
