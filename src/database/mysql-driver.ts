import mysql, { type Pool, type PoolConnection, type PoolOptions } from 'mysql2';

/**
 * mysql2 with every pooled connection at READ COMMITTED. A unit of work that
 * waited for a row lock then reads what was committed meanwhile (the sends in
 * a recipient's window, the balance a failed debit saw), where REPEATABLE READ
 * would show the snapshot of its first read.
 */
export const mysqlDriver = {
  ...mysql,
  createPool(options: PoolOptions): Pool {
    const pool = mysql.createPool(options);
    pool.on('connection', (connection: PoolConnection) => {
      connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    });
    return pool;
  },
};
