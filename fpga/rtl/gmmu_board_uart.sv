// Board UART (8N1, docs/fpga.md "Host link"): a receiver with a small FIFO (the bridge may be
// busy on the bus while the next byte arrives) and a transmitter with valid/ready.
// ClkDiv = clock cycles per bit (clock frequency / baud rate).
module gmmu_board_uart #(
  parameter int unsigned ClkDiv   = 217,
  parameter int unsigned RxDepthW = 4
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  // serial lines
  input  logic       rx_i,
  output logic       tx_o,
  // received bytes
  output logic       rx_valid_o,
  output logic [7:0] rx_data_o,
  input  logic       rx_ready_i,
  output logic       rx_overflow_o,  // one-cycle pulse: a byte was lost (FIFO full)
  // bytes to send
  input  logic       tx_valid_i,
  input  logic [7:0] tx_data_i,
  output logic       tx_ready_o
);
  localparam int unsigned CntW = $clog2(ClkDiv + 1);
  localparam int unsigned Half = ClkDiv / 2;

  // ---------------------------------------------------------------- receiver
  typedef enum logic [1:0] {RxIdle, RxStart, RxData, RxStop} rx_state_e;
  rx_state_e       rx_state_q, rx_state_d;
  logic [1:0]      rx_sync_q;
  logic [CntW-1:0] rx_cnt_q, rx_cnt_d;
  logic [2:0]      rx_bit_q, rx_bit_d;
  logic [7:0]      rx_shift_q, rx_shift_d;
  logic            rx_push;
  logic            rx_line;

  assign rx_line = rx_sync_q[1];

  always_comb begin
    rx_state_d = rx_state_q;
    rx_cnt_d   = rx_cnt_q;
    rx_bit_d   = rx_bit_q;
    rx_shift_d = rx_shift_q;
    rx_push    = 1'b0;
    unique case (rx_state_q)
      RxIdle: begin
        if (!rx_line) begin
          rx_state_d = RxStart;
          rx_cnt_d   = CntW'(Half);
        end
      end
      RxStart: begin  // middle of the start bit: still low, else a glitch
        if (rx_cnt_q == '0) begin
          rx_state_d = rx_line ? RxIdle : RxData;
          rx_cnt_d   = CntW'(ClkDiv - 1);
          rx_bit_d   = '0;
        end else begin
          rx_cnt_d = rx_cnt_q - 1'b1;
        end
      end
      RxData: begin
        if (rx_cnt_q == '0) begin
          rx_shift_d = {rx_line, rx_shift_q[7:1]};
          rx_cnt_d   = CntW'(ClkDiv - 1);
          rx_bit_d   = rx_bit_q + 1'b1;
          if (rx_bit_q == 3'd7) begin
            rx_state_d = RxStop;
          end
        end else begin
          rx_cnt_d = rx_cnt_q - 1'b1;
        end
      end
      RxStop: begin
        if (rx_cnt_q == '0) begin
          rx_state_d = RxIdle;
          rx_push    = rx_line;  // a framing error drops the byte
        end else begin
          rx_cnt_d = rx_cnt_q - 1'b1;
        end
      end
      default: rx_state_d = RxIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_state_q <= RxIdle;
      rx_sync_q  <= 2'b11;
      rx_cnt_q   <= '0;
      rx_bit_q   <= '0;
      rx_shift_q <= '0;
    end else begin
      rx_state_q <= rx_state_d;
      rx_sync_q  <= {rx_sync_q[0], rx_i};
      rx_cnt_q   <= rx_cnt_d;
      rx_bit_q   <= rx_bit_d;
      rx_shift_q <= rx_shift_d;
    end
  end

  // receive FIFO
  localparam int unsigned RxDepth = 2 ** RxDepthW;
  logic [7:0]        rx_fifo_q [RxDepth];
  logic [RxDepthW:0] rx_wp_q, rx_rp_q;
  logic              rx_full, rx_empty, rx_pop;

  assign rx_full       = (rx_wp_q - rx_rp_q) == (RxDepthW + 1)'(RxDepth);
  assign rx_empty      = rx_wp_q == rx_rp_q;
  assign rx_valid_o    = !rx_empty;
  assign rx_data_o     = rx_fifo_q[rx_rp_q[RxDepthW-1:0]];
  assign rx_pop        = rx_valid_o && rx_ready_i;
  assign rx_overflow_o = rx_push && rx_full;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_wp_q <= '0;
      rx_rp_q <= '0;
      for (int unsigned i = 0; i < RxDepth; i++) begin
        rx_fifo_q[i] <= '0;
      end
    end else begin
      if (rx_push && !rx_full) begin
        rx_fifo_q[rx_wp_q[RxDepthW-1:0]] <= rx_shift_q;
        rx_wp_q <= rx_wp_q + 1'b1;
      end
      if (rx_pop) begin
        rx_rp_q <= rx_rp_q + 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- transmitter
  logic [9:0]      tx_shift_q, tx_shift_d;  // stop, data[7:0], start; shifted out LSB first
  logic [3:0]      tx_left_q, tx_left_d;    // bits still to send
  logic [CntW-1:0] tx_cnt_q, tx_cnt_d;

  assign tx_ready_o = tx_left_q == '0;
  assign tx_o       = tx_shift_q[0];

  always_comb begin
    tx_shift_d = tx_shift_q;
    tx_left_d  = tx_left_q;
    tx_cnt_d   = tx_cnt_q;
    if (tx_left_q == '0) begin
      if (tx_valid_i) begin
        tx_shift_d = {1'b1, tx_data_i, 1'b0};
        tx_left_d  = 4'd10;
        tx_cnt_d   = CntW'(ClkDiv - 1);
      end
    end else if (tx_cnt_q == '0) begin
      tx_shift_d = {1'b1, tx_shift_q[9:1]};
      tx_left_d  = tx_left_q - 1'b1;
      tx_cnt_d   = CntW'(ClkDiv - 1);
    end else begin
      tx_cnt_d = tx_cnt_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_shift_q <= 10'h3ff;
      tx_left_q  <= '0;
      tx_cnt_q   <= '0;
    end else begin
      tx_shift_q <= tx_shift_d;
      tx_left_q  <= tx_left_d;
      tx_cnt_q   <= tx_cnt_d;
    end
  end
endmodule
