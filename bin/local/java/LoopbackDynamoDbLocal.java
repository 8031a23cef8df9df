/*
 * DynamoDB Local bound to one address. Its DynamoDBProxyServer builds `new Server(port)`, a Jetty
 * connector on every interface, and it has no option to change that: anyone on the network could
 * read and write the whole table. This builds the server exactly as the jar's ServerRunner does,
 * from the same command line, sets the host of each of its connectors before it starts, then
 * starts it. Compiled once by bin/local/engines.ts (cached under node_modules/.cache).
 *
 * java -Dgitlab.local.host=127.0.0.1 -cp DynamoDBLocal.jar:<classes> LoopbackDynamoDbLocal <DynamoDB Local options>
 */
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public final class LoopbackDynamoDbLocal {
  private LoopbackDynamoDbLocal() {}

  public static void main(String[] args) throws Exception {
    String host = System.getProperty("gitlab.local.host", "127.0.0.1");
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    int bound = 0;
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector) {
        ((ServerConnector) connector).setHost(host);
        bound++;
      }
    }
    // A jar whose server has no connector we know would listen where it likes: refuse to start.
    if (bound == 0 || bound != server.getConnectors().length) {
      throw new IllegalStateException("DynamoDB Local's server has a connector this launcher cannot bind to " + host);
    }
    proxy.start();
  }
}
