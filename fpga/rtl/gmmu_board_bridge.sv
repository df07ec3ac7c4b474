// UART-to-bus bridge speaking LiteX's UARTBone wire protocol (docs/fpga.md "Host link"), so the
// host program, litex_server and litex_cli all talk to the board:
//   host -> board: cmd (1 byte), length (1 byte, words), address (4 bytes, big-endian, a 32-bit
//   WORD address), then for writes length x 4 data bytes (big-endian); the board answers a read
//   with length x 4 data bytes (big-endian). cmd 0x01 write incrementing, 0x02 read incrementing,
//   0x03 write fixed address, 0x04 read fixed address; any other cmd is ignored.
// As LiteX's, an unfinished command is abandoned after TimeoutCycles without a byte (0: never).
// The bus: one request at a time, held until ack (the target answers in one or more cycles).
module gmmu_board_bridge #(
  parameter int unsigned TimeoutCycles = 2500000
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // bytes from / to the UART
  input  logic        rx_valid_i,
  input  logic [7:0]  rx_data_i,
  output logic        rx_ready_o,
  output logic        tx_valid_o,
  output logic [7:0]  tx_data_o,
  input  logic        tx_ready_i,
  // bus
  output logic        bus_req_o,
  output logic        bus_we_o,
  output logic [29:0] bus_waddr_o,  // word address
  output logic [31:0] bus_wdata_o,
  input  logic        bus_ack_i,
  input  logic [31:0] bus_rdata_i
);
  localparam logic [7:0] CmdWriteIncr  = 8'h01;
  localparam logic [7:0] CmdReadIncr   = 8'h02;
  localparam logic [7:0] CmdWriteFixed = 8'h03;
  localparam logic [7:0] CmdReadFixed  = 8'h04;
  localparam int unsigned TimerW = (TimeoutCycles > 1) ? $clog2(TimeoutCycles + 1) : 1;

  typedef enum logic [2:0] {
    StCmd, StLen, StAddr, StWData, StWrite, StRead, StSend
  } state_e;

  state_e            state_q, state_d;
  logic [7:0]        cmd_q, cmd_d;
  logic [7:0]        len_q, len_d;        // words of the command
  logic [7:0]        done_q, done_d;      // words done
  logic [31:0]       addr_q, addr_d;
  logic [31:0]       data_q, data_d;
  logic [1:0]        nbyte_q, nbyte_d;    // byte within the address / data word
  logic [TimerW-1:0] timer_q, timer_d;
  logic              incr, last_word, timeout;

  assign incr      = (cmd_q == CmdWriteIncr) || (cmd_q == CmdReadIncr);
  assign last_word = done_q == len_q - 1'b1;
  assign timeout   = (TimeoutCycles != 0) && (timer_q == TimerW'(TimeoutCycles));

  assign bus_req_o   = (state_q == StWrite) || (state_q == StRead);
  assign bus_we_o    = state_q == StWrite;
  assign bus_waddr_o = addr_q[29:0];
  assign bus_wdata_o = data_q;
  assign rx_ready_o  = (state_q == StCmd) || (state_q == StLen) || (state_q == StAddr) ||
                       (state_q == StWData);
  assign tx_valid_o  = state_q == StSend;
  assign tx_data_o   = data_q[31:24];

  always_comb begin
    state_d = state_q;
    cmd_d   = cmd_q;
    len_d   = len_q;
    done_d  = done_q;
    addr_d  = addr_q;
    data_d  = data_q;
    nbyte_d = nbyte_q;
    // the timer runs only while a command waits for host bytes
    if (rx_valid_i || !(state_q == StLen || state_q == StAddr || state_q == StWData)) begin
      timer_d = '0;
    end else if (!timeout) begin
      timer_d = timer_q + 1'b1;
    end else begin
      timer_d = timer_q;
    end
    unique case (state_q)
      StCmd: begin
        if (rx_valid_i) begin
          cmd_d   = rx_data_i;
          state_d = StLen;
        end
      end
      StLen: begin
        if (rx_valid_i) begin
          len_d   = rx_data_i;
          done_d  = '0;
          nbyte_d = '0;
          state_d = StAddr;
        end
      end
      StAddr: begin
        if (rx_valid_i) begin
          addr_d  = {addr_q[23:0], rx_data_i};
          nbyte_d = nbyte_q + 1'b1;
          if (nbyte_q == 2'd3) begin
            if (len_q == '0) begin
              state_d = StCmd;
            end else if (cmd_q == CmdWriteIncr || cmd_q == CmdWriteFixed) begin
              state_d = StWData;
            end else if (cmd_q == CmdReadIncr || cmd_q == CmdReadFixed) begin
              state_d = StRead;
            end else begin
              state_d = StCmd;
            end
          end
        end
      end
      StWData: begin
        if (rx_valid_i) begin
          data_d  = {data_q[23:0], rx_data_i};
          nbyte_d = nbyte_q + 1'b1;
          if (nbyte_q == 2'd3) begin
            state_d = StWrite;
          end
        end
      end
      StWrite: begin
        if (bus_ack_i) begin
          done_d  = done_q + 1'b1;
          addr_d  = addr_q + {31'd0, incr};
          state_d = last_word ? StCmd : StWData;
        end
      end
      StRead: begin
        if (bus_ack_i) begin
          data_d  = bus_rdata_i;
          nbyte_d = '0;
          state_d = StSend;
        end
      end
      StSend: begin
        if (tx_ready_i) begin
          data_d  = {data_q[23:0], 8'h00};
          nbyte_d = nbyte_q + 1'b1;
          if (nbyte_q == 2'd3) begin
            done_d  = done_q + 1'b1;
            addr_d  = addr_q + {31'd0, incr};
            state_d = last_word ? StCmd : StRead;
          end
        end
      end
      default: state_d = StCmd;
    endcase
    // as LiteX: an unfinished command (waiting for host bytes) is abandoned after the timeout
    if (timeout && (state_q == StLen || state_q == StAddr || state_q == StWData)) begin
      state_d = StCmd;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StCmd;
      cmd_q   <= '0;
      len_q   <= '0;
      done_q  <= '0;
      addr_q  <= '0;
      data_q  <= '0;
      nbyte_q <= '0;
      timer_q <= '0;
    end else begin
      state_q <= state_d;
      cmd_q   <= cmd_d;
      len_q   <= len_d;
      done_q  <= done_d;
      addr_q  <= addr_d;
      data_q  <= data_d;
      nbyte_q <= nbyte_d;
      timer_q <= timer_d;
    end
  end
endmodule
