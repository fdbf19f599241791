use crate::cli::SshOptions;
use anyhow::{Context, Error, Result, anyhow};
use russh::client::Handle;
use russh::{
    client::{self, AuthResult, Config, Handler},
    keys::{self, PrivateKeyWithHashAlg, PublicKey},
};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::RwLock;
use tokio::task::JoinHandle;
use tracing::error;
use url::Url;

struct ClientHandler {
    host: String,
    port: u16,
}

impl Handler for ClientHandler {
    type Error = Error;

    async fn check_server_key(
        &mut self,
        server_public_key: &PublicKey,
    ) -> Result<bool, Self::Error> {
        keys::check_known_hosts(&self.host, self.port, server_public_key)
            .context("Unable to verify server key")
    }
}

struct SessionManager {
    opts: SshOptions,
    session: Option<Handle<ClientHandler>>,
}

impl SessionManager {
    fn new(opts: SshOptions) -> Self {
        Self {
            opts,
            session: None,
        }
    }

    fn get(&self) -> &Handle<ClientHandler> {
        self.session.as_ref().expect("Missed initial connect")
    }

    async fn connect(&mut self) -> Result<&Handle<ClientHandler>> {
        if self.session.as_ref().is_some_and(|s| !s.is_closed()) {
            return Ok(self.get());
        }

        let mut config = Config::default();
        config.keepalive_interval = Some(Duration::from_secs(30));

        let mut session = client::connect(
            Arc::new(config),
            (self.opts.host.as_ref(), self.opts.port),
            ClientHandler {
                host: self.opts.host.clone(),
                port: self.opts.port,
            },
        )
        .await?;

        let mut authenticated = false;

        if let Some(password) = &self.opts.password {
            let res = session
                .authenticate_password(&self.opts.username, password)
                .await?;

            authenticated = matches!(res, AuthResult::Success);
        }

        if let Some(ref path) = self.opts.private_key {
            let key = Arc::new(keys::load_secret_key(path, None)?);
            let res = session
                .authenticate_publickey(
                    &self.opts.username,
                    PrivateKeyWithHashAlg::new(
                        key,
                        session.best_supported_rsa_hash().await?.flatten(),
                    ),
                )
                .await?;

            authenticated = matches!(res, AuthResult::Success);
        }

        if !authenticated {
            return Err(anyhow!("Failed to authenticate with SSH server"));
        }

        Ok(self.session.insert(session))
    }
}

pub async fn create(opts: SshOptions, db_url: Url) -> Result<(JoinHandle<()>, u16)> {
    let mut manager = SessionManager::new(opts);
    manager.connect().await?;
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();

    let handle = tokio::spawn(async move {
        let res = listen(listener, manager, db_url).await;
        match res {
            Err(err) => error!(?err, "Error while forwarding"),
            _ => (),
        };
    });

    Ok((handle, port))
}

async fn listen(listener: TcpListener, manager: SessionManager, db_url: Url) -> Result<()> {
    let manager = Arc::new(RwLock::new(manager));
    let db_url = Arc::new(db_url);

    loop {
        let (con, addr) = listener.accept().await.context("accepting connection")?;
        let cloned_manager = Arc::clone(&manager);
        let cloned_url = Arc::clone(&db_url);

        tokio::spawn(async move {
            let res = forward(con, addr, cloned_manager, cloned_url).await;
            match res {
                Err(err) => error!(?err, "Error while forwarding"),
                _ => (),
            };
        });
    }
}

async fn forward(
    mut con: TcpStream,
    addr: SocketAddr,
    manager: Arc<RwLock<SessionManager>>,
    db_url: Arc<Url>,
) -> Result<()> {
    {
        manager.write().await.connect().await?;
    }

    let channel = {
        let session = manager.read().await;
        session
            .get()
            .channel_open_direct_tcpip(
                db_url.host_str().context("missing host")?,
                db_url.port().context("missing port")? as u32,
                addr.ip().to_string(),
                addr.port() as u32,
            )
            .await?
    };

    let mut stream = channel.into_stream();

    tokio::io::copy_bidirectional(&mut con, &mut stream).await?;

    Ok(())
}
