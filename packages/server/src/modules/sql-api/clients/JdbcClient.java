import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Connects to the SQL API with the PostgreSQL JDBC driver (Debian's libpostgresql-jdbc-java, the
 * driver Metabase, Tableau and DBeaver use), browses its metadata as those tools do and runs a
 * prepared query; prints lines the test reads. Arguments: url user password.
 */
public class JdbcClient {
  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    props.setProperty("user", args[1]);
    props.setProperty("password", args[2]);
    props.setProperty("sslmode", "disable");
    try (Connection connection = DriverManager.getConnection(args[0], props)) {
      DatabaseMetaData meta = connection.getMetaData();
      System.out.println("product " + meta.getDatabaseProductName() + " " + meta.getDatabaseMajorVersion());
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = meta.getTables(null, "public", "%", new String[] {"TABLE"})) {
        while (rs.next()) tables.add(rs.getString("TABLE_NAME"));
      }
      System.out.println("tables " + String.join(",", tables));
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = meta.getColumns(null, "public", "orders", "%")) {
        while (rs.next()) columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("TYPE_NAME"));
      }
      System.out.println("columns " + String.join(",", columns));
      try (ResultSet rs = meta.getSchemas()) {
        while (rs.next()) if (rs.getString(1).equals("public")) System.out.println("schema public");
      }
      // Past prepareThreshold (5) the driver switches to a named server statement and binary results.
      for (int i = 0; i < 7; i++) {
        try (PreparedStatement ps = connection.prepareStatement("SELECT status, MEASURE(count) AS n FROM orders WHERE status = ? GROUP BY 1")) {
          ps.setString(1, "completed");
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) System.out.println("row " + i + " " + rs.getString(1) + " " + rs.getLong(2));
          }
        }
      }
      try {
        connection.createStatement().executeQuery("SELECT nope FROM orders");
      } catch (SQLException e) {
        System.out.println("error " + e.getSQLState());
      }
    }
  }
}
